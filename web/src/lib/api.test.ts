import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { loadLang, setLang } from '@/i18n'
import { isDeviceId } from './device'
import { setToken } from './storage'
import { MemoryStorage } from './testing'

const toastText = vi.fn()
vi.mock('./toast', () => ({ toast: { text: toastText, fail: vi.fn(), success: vi.fn(), loading: vi.fn(), html: vi.fn(), clear: vi.fn() } }))

const { api, ApiError, buildQuery, setBaseURL, setSessionPending, setUnauthorizedHandler, REQUEST_TIMEOUT_MS } = await import('./api')

type FetchArgs = [string, RequestInit]
let fetchMock: ReturnType<typeof vi.fn<(...a: FetchArgs) => Promise<Response>>>

function json(body: unknown, status = 200, statusText = ''): Response {
  return new Response(JSON.stringify(body), { status, statusText, headers: { 'Content-Type': 'application/json' } })
}
const ok = (data: unknown) => json({ code: 200, tip: '', msg: '', data })

function answer(res: () => Response) {
  fetchMock.mockImplementation(async () => res())
}

const call = (i = 0) => {
  const [url, init] = fetchMock.mock.calls[i]
  return { url, init, headers: init.headers as Record<string, string> }
}

async function rejection(p: Promise<unknown>) {
  try {
    await p
  } catch (e) {
    return e as InstanceType<typeof ApiError>
  }
  throw new Error('expected a rejection')
}

// English is a chunk loaded on demand; these tests switch to it.
beforeAll(() => loadLang('en'))
beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage())
  vi.stubGlobal('navigator', {
    userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
    maxTouchPoints: 5,
  })
  fetchMock = vi.fn<(...a: FetchArgs) => Promise<Response>>()
  vi.stubGlobal('fetch', fetchMock)
  toastText.mockClear()
  setBaseURL('')
  setUnauthorizedHandler(null)
})
afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  setLang('zh-CN')
})

describe('requests', () => {
  it('unwraps the envelope', async () => {
    answer(() => ok({ uid: 7 }))
    await expect(api.get('/api/app/mine/info')).resolves.toEqual({ uid: 7 })
  })

  it('resolves null data as null', async () => {
    answer(() => json({ code: 200, tip: '', msg: '', data: null }))
    await expect(api.post('/api/app/mine/logout')).resolves.toBeNull()
  })

  it('sends GET params as a query, dropping null and undefined', async () => {
    answer(() => ok([]))
    await api.get('/api/app/vid/moduleVideo', { pageSize: 10, moduleID: 3, subModuleID: null, sortType: undefined, pageNumber: 1, tags: ['a', null, 'b c'] })
    const { url, init } = call()
    expect(url).toBe('/api/app/vid/moduleVideo?moduleID=3&pageNumber=1&pageSize=10&tags=a&tags=b+c')
    expect(init.method).toBe('GET')
    expect(init.body).toBeUndefined()
  })

  it('sends DELETE params as a query too', async () => {
    answer(() => ok(null))
    await api.delete('/api/app/mine/txnact/del', { id: 4 })
    expect(call().url).toBe('/api/app/mine/txnact/del?id=4')
    expect(call().init.method).toBe('DELETE')
  })

  it('sends POST and PUT bodies as JSON, {} when empty', async () => {
    answer(() => ok(null))
    await api.post('/api/app/mine/register', { account: 'abc1', passWord: 'pw1234' })
    expect(call(0).init.body).toBe('{"account":"abc1","passWord":"pw1234"}')
    expect(call(0).headers['Content-Type']).toBe('application/json')
    await api.post('/api/app/mine/logout')
    expect(call(1).init.body).toBe('{}')
    await api.put('/x', { a: 1 })
    expect(call(2).init.method).toBe('PUT')
    expect(call(2).url).toBe('/x')
  })

  it('sends FormData as is, without a JSON content type', async () => {
    answer(() => ok(null))
    const fd = new FormData()
    fd.append('file', 'x')
    await api.post('/api/app/vid/uploadStatic', fd)
    expect(call().init.body).toBe(fd)
    expect(call().headers['Content-Type']).toBeUndefined()
  })

  it('prefixes the base URL', async () => {
    answer(() => ok(1))
    setBaseURL('https://api.example.com/')
    await api.get('/api/app/ping/check')
    expect(call().url).toBe('https://api.example.com/api/app/ping/check')
  })
})

describe('headers', () => {
  it('sends X-App-Client with device id, version, platform and h5', async () => {
    answer(() => ok(1))
    await api.get('/a')
    const m = /^devID=([^;]+);ver=1\.1\.3;dev=ios;h5=1$/.exec(call().headers['X-App-Client'])
    expect(m).not.toBeNull()
    expect(isDeviceId(m![1])).toBe(true)
  })

  it('sends the bearer token when signed in', async () => {
    answer(() => ok(1))
    setToken('tok-1')
    await api.get('/a')
    expect(call().headers.Authorization).toBe('Bearer tok-1')
  })

  it('sends no Authorization when signed out, or when the call says noToken', async () => {
    answer(() => ok(1))
    await api.get('/a')
    expect('Authorization' in call(0).headers).toBe(false)
    setToken('tok-1')
    await api.post('/api/app/mine/login/h5', {}, { noToken: true })
    expect('Authorization' in call(1).headers).toBe(false)
  })
})

// A first visit draws its page while the guest signs in: public calls go at
// once, a call that would carry a token waits for it and then carries it.
describe('while the guest sign-in is under way', () => {
  afterEach(() => setSessionPending(null))

  it('holds a personal call until the sign-in ends, then sends it with the new token', async () => {
    answer(() => ok(1))
    let signedIn!: () => void
    setSessionPending(new Promise<void>((r) => (signedIn = r)))
    const personal = api.get('/api/app/mine/unread')
    const open = api.get('/api/app/modules/list', { moduleType: 0 }, { public: true })
    await open
    await new Promise((r) => setTimeout(r, 10))
    expect(fetchMock.mock.calls.map(([u]) => u)).toEqual(['/api/app/modules/list?moduleType=0'])
    expect('Authorization' in call(0).headers).toBe(false)
    setToken('guest-1')
    setSessionPending(null)
    signedIn()
    await personal
    expect(call(1).url).toBe('/api/app/mine/unread')
    expect(call(1).headers.Authorization).toBe('Bearer guest-1')
  })

  it('sends the held call without a token when the sign-in fails, so it fails as it would have', async () => {
    answer(() => json({ code: 401, tip: 'sign in', msg: '', data: null }, 401))
    let failed!: (e: Error) => void
    setSessionPending(new Promise<void>((_, f) => (failed = f)))
    const personal = api.get('/api/app/mine/unread')
    await new Promise((r) => setTimeout(r, 10))
    expect(fetchMock).not.toHaveBeenCalled()
    failed(new Error('offline'))
    expect((await rejection(personal)).status).toBe(401)
    expect('Authorization' in call(0).headers).toBe(false)
  })

  it('does not hold a call that has a token already, or that sends none (the sign-in itself)', async () => {
    answer(() => ok(1))
    setSessionPending(new Promise<void>(() => undefined))
    await api.post('/api/app/mine/login', {}, { noToken: true })
    setToken('member')
    await api.get('/api/app/mine/info')
    expect(fetchMock).toHaveBeenCalledTimes(2)
    expect(call(1).headers.Authorization).toBe('Bearer member')
  })
})

describe('errors', () => {
  it('rejects a non-200 envelope with its code, tip and msg and toasts the tip', async () => {
    answer(() => json({ code: 4001, tip: '余额不足', msg: 'balance too low', data: null }))
    const err = await rejection(api.post('/api/app/withdraw', { amount: 1 }, { toast: true }))
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ code: 4001, tip: '余额不足', msg: 'balance too low', status: 200, kind: 'business' })
    expect(toastText).toHaveBeenCalledExactlyOnceWith('余额不足')
  })

  it('shows the server tip for a non-2xx envelope', async () => {
    answer(() => json({ code: 409, tip: '账号已被注册', msg: 'duplicate account', data: null }, 409, 'Conflict'))
    const err = await rejection(api.post('/api/app/mine/register', {}, { toast: true }))
    expect(err).toMatchObject({ code: 409, tip: '账号已被注册', msg: 'duplicate account', status: 409, kind: 'http' })
    expect(toastText).toHaveBeenCalledWith('账号已被注册')
  })

  it('falls back to the status message when the body has no tip', async () => {
    answer(() => new Response('<html>bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }))
    const err = await rejection(api.get('/a', null, { toast: true }))
    expect(err).toMatchObject({ code: 502, status: 502, tip: '网关错误', kind: 'http' })
    expect(toastText).toHaveBeenCalledWith('网关错误')
  })

  it('uses the status message when the envelope tip is blank', async () => {
    answer(() => json({ code: 404, tip: '  ', msg: '', data: null }, 404))
    const err = await rejection(api.get('/a'))
    expect(err.tip).toBe('请求的地址不存在')
  })

  it('shows the status text for a status outside the catalogue', async () => {
    answer(() => new Response('', { status: 418, statusText: "I'm a teapot" }))
    expect((await rejection(api.get('/a'))).tip).toBe("I'm a teapot")
  })

  it('gives a readable message for a 2xx that is not an envelope', async () => {
    answer(() => new Response('<html>captive portal</html>', { status: 200 }))
    const err = await rejection(api.get('/a'))
    expect(err).toMatchObject({ kind: 'parse', tip: '服务器返回了无法识别的数据' })
  })

  it('turns a network failure into a generic message', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    const err = await rejection(api.get('/a', null, { toast: true }))
    expect(err).toMatchObject({ kind: 'network', code: 0, status: 0, tip: '网络连接失败，请检查网络', msg: 'Failed to fetch' })
    expect(toastText).toHaveBeenCalledWith('网络连接失败，请检查网络')
  })

  it('speaks the app language', async () => {
    setLang('en')
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'))
    expect((await rejection(api.get('/a'))).tip).toBe('Network error, please check your connection')
  })

  it('does not toast unless the call asks', async () => {
    answer(() => json({ code: 500, tip: '服务器发生错误', msg: '', data: null }, 500))
    const err = await rejection(api.get('/a'))
    expect(err.code).toBe(500)
    expect(toastText).not.toHaveBeenCalled()
  })

  it('still rejects with the ApiError when the toast itself throws', async () => {
    toastText.mockImplementationOnce(() => {
      throw new Error('no DOM')
    })
    answer(() => json({ code: 422, tip: 'pageSize 超出范围', msg: '', data: null }, 422))
    expect((await rejection(api.get('/a', null, { toast: true }))).tip).toBe('pageSize 超出范围')
    expect(toastText).toHaveBeenCalledOnce()
  })
})

describe('timeout', () => {
  function hang() {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise((_, reject) => {
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        }),
    )
  }

  it('aborts after 30 000 ms (spec §9) with a timeout error', async () => {
    vi.useFakeTimers()
    hang()
    expect(REQUEST_TIMEOUT_MS).toBe(30000)
    let settled = false
    const p = api.get('/slow', null, { toast: true }).finally(() => (settled = true))
    const caught = rejection(p)
    await vi.advanceTimersByTimeAsync(29_999)
    expect(settled).toBe(false)
    expect(call().init.signal!.aborted).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    const err = await caught
    expect(err).toMatchObject({ kind: 'timeout', code: 0, status: 0, tip: '请求超时，请稍后再试' })
    expect(toastText).toHaveBeenCalledWith('请求超时，请稍后再试')
  })

  it('takes a shorter timeout per call', async () => {
    vi.useFakeTimers()
    hang()
    const caught = rejection(api.get('/slow', null, { timeout: 3000 }))
    await vi.advanceTimersByTimeAsync(3000)
    expect((await caught).kind).toBe('timeout')
  })

  it("aborts with the caller's signal, quietly, and never shares the request", async () => {
    hang()
    const ctrl = new AbortController()
    const a = rejection(api.get('/suggest', { q: '猫' }, { signal: ctrl.signal }))
    const b = rejection(api.get('/suggest', { q: '猫' }, { signal: new AbortController().signal }))
    expect(fetchMock).toHaveBeenCalledTimes(2)
    ctrl.abort()
    const err = await a
    expect(err).toMatchObject({ kind: 'network', msg: 'aborted' })
    expect(call(0).init.signal!.aborted).toBe(true)
    expect(call(1).init.signal!.aborted).toBe(false)
    expect(toastText).not.toHaveBeenCalled()
    void b
  })

  it('clears its timer when the answer arrives', async () => {
    vi.useFakeTimers()
    answer(() => ok(1))
    await api.get('/fast')
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('dedupe', () => {
  function deferred() {
    let resolve!: (r: Response) => void
    const promise = new Promise<Response>((r) => (resolve = r))
    return { promise, resolve }
  }

  it('sends identical in-flight requests once and gives both callers the answer', async () => {
    const d = deferred()
    fetchMock.mockReturnValue(d.promise)
    const a = api.get('/api/app/modules/list', { moduleType: 0 })
    const b = api.get('/api/app/modules/list', { moduleType: 0 })
    d.resolve(ok(['m']))
    await expect(a).resolves.toEqual(['m'])
    await expect(b).resolves.toEqual(['m'])
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('treats params in another order as the same request', async () => {
    const d = deferred()
    fetchMock.mockReturnValue(d.promise)
    const a = api.get('/v', { a: 1, b: 2 })
    const b = api.get('/v', { b: 2, a: 1 })
    d.resolve(ok(1))
    await Promise.all([a, b])
    expect(fetchMock).toHaveBeenCalledTimes(1)
  })

  it('sends different requests separately', async () => {
    answer(() => ok(1))
    await Promise.all([
      api.get('/v', { a: 1 }),
      api.get('/v', { a: 2 }),
      api.post('/v', { a: 1 }),
      api.post('/v', { a: 2 }),
      api.delete('/v', { a: 1 }),
    ])
    expect(fetchMock).toHaveBeenCalledTimes(5)
  })

  it('sends again once the first answer is in', async () => {
    answer(() => ok(1))
    await api.get('/v')
    await api.get('/v')
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('never merges uploads', async () => {
    answer(() => ok(1))
    const fd = new FormData()
    await Promise.all([api.post('/u', fd), api.post('/u', fd)])
    expect(fetchMock).toHaveBeenCalledTimes(2)
  })

  it('toasts a shared failure once, and only if some caller asked', async () => {
    let d = deferred()
    fetchMock.mockImplementation(() => d.promise)
    const a = rejection(api.get('/e'))
    const b = rejection(api.get('/e', null, { toast: true }))
    d.resolve(json({ code: 503, tip: '维护中', msg: '', data: null }, 503))
    expect((await a).tip).toBe('维护中')
    expect((await b).tip).toBe('维护中')
    expect(toastText).toHaveBeenCalledTimes(1)

    toastText.mockClear()
    d = deferred()
    const c = rejection(api.get('/e'))
    const e = rejection(api.get('/e'))
    d.resolve(json({ code: 503, tip: '维护中', msg: '', data: null }, 503))
    await Promise.all([c, e])
    expect(toastText).not.toHaveBeenCalled()
  })
})

describe('401', () => {
  it('calls the unauthorized handler when a sent token was refused', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    setToken('stale')
    answer(() => json({ code: 401, tip: '登录已失效，请重新登录', msg: 'token revoked', data: null }, 401))
    const err = await rejection(api.get('/api/app/mine/info', null, { toast: true }))
    expect(handler).toHaveBeenCalledExactlyOnceWith(err)
    expect(toastText).toHaveBeenCalledWith('登录已失效，请重新登录')
  })

  it('also for a call that does not toast', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    setToken('stale')
    answer(() => json({ code: 401, tip: 'x', msg: '', data: null }, 401))
    await rejection(api.get('/a'))
    expect(handler).toHaveBeenCalledOnce()
    expect(toastText).not.toHaveBeenCalled()
  })

  it('does not log out over a 401 to a request without a token (wrong password)', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    setToken('guest-token')
    answer(() => json({ code: 401, tip: '账号或密码错误', msg: 'bad credentials', data: null }, 401))
    const err = await rejection(api.post('/api/app/mine/login/h5', { account: 'a', passWord: 'b' }, { noToken: true }))
    expect(err.tip).toBe('账号或密码错误')
    expect(handler).not.toHaveBeenCalled()
  })

  it('does not log out over a 401 to a password re-check (wrong password, session fine)', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    setToken('user-token')
    answer(() => json({ code: 401, tip: '密码错误', msg: 'wrong password', data: null }, 401))
    const err = await rejection(api.post('/api/app/withdraw', { passWord: 'x' }, { passwordCheck: true }))
    expect(err.tip).toBe('密码错误')
    expect(handler).not.toHaveBeenCalled()
  })

  it('does not call the handler for other errors', async () => {
    const handler = vi.fn()
    setUnauthorizedHandler(handler)
    setToken('t')
    answer(() => json({ code: 403, tip: 'no', msg: '', data: null }, 403))
    await rejection(api.get('/a'))
    expect(handler).not.toHaveBeenCalled()
  })
})

describe('buildQuery', () => {
  it('is empty for no params', () => {
    expect(buildQuery()).toBe('')
    expect(buildQuery({})).toBe('')
    expect(buildQuery({ a: null, b: undefined })).toBe('')
  })

  it('keeps 0, false and empty strings', () => {
    expect(buildQuery({ n: 0, f: false, s: '' })).toBe('?f=false&n=0&s=')
  })

  it('encodes special characters and dates', () => {
    expect(buildQuery({ q: '中 文&x=1' })).toBe('?q=%E4%B8%AD+%E6%96%87%26x%3D1')
    expect(buildQuery({ at: new Date(0) })).toBe('?at=1970-01-01T00%3A00%3A00.000Z')
  })
})
