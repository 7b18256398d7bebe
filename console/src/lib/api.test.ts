import { describe, expect, it, vi } from 'vitest'
import { ApiError, createClient, query, unwrap, type ClientHooks } from './api'
import { shareStepUp } from './client'

// A fake server: each call is answered by the next queued answer, and every
// request is recorded with its headers and body.
interface Seen {
  method: string
  url: string
  headers: Record<string, string>
  body: unknown
}

function fakeServer(answers: Array<{ status: number; body?: unknown; headers?: Record<string, string>; raw?: string }>) {
  const seen: Seen[] = []
  const fetchImpl = async (url: string, init: RequestInit) => {
    seen.push({
      method: init.method ?? 'GET',
      url,
      headers: (init.headers ?? {}) as Record<string, string>,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
    })
    const a = answers.shift()
    if (!a) throw new Error('no answer queued for ' + url)
    const text = a.raw ?? JSON.stringify(a.body)
    return new Response(text, { status: a.status, headers: { 'Content-Type': 'application/json', ...a.headers } })
  }
  return { seen, fetchImpl }
}

const ok = (data: unknown) => ({ status: 200, body: { code: 200, tip: '', msg: 'success', data } })
const refuse = (status: number, tip: string, data: unknown = null) => ({ status, body: { code: status, tip, msg: 'x', data } })

function hooks(over: { token?: ClientHooks['token']; stepUp?: ReturnType<typeof vi.fn<ClientHooks['stepUp']>> } = {}) {
  return {
    token: over.token ?? (() => 'tok-1'),
    onUnauthorized: vi.fn<ClientHooks['onUnauthorized']>(),
    stepUp: over.stepUp ?? vi.fn<ClientHooks['stepUp']>(async () => true),
  }
}

describe('unwrap', () => {
  it('gives the data of a 200 envelope', () => {
    expect(unwrap(200, JSON.stringify({ code: 200, data: { a: 1 } }))).toEqual({ a: 1 })
    expect(unwrap(200, JSON.stringify({ code: 200 }))).toBeNull()
  })

  it('throws the status, tip and data of an error envelope', () => {
    const body = JSON.stringify({ code: 428, tip: '请先绑定验证器', msg: 'enrol', data: { enrol: { ticket: 't' } } })
    try {
      unwrap(428, body)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(ApiError)
      const err = e as ApiError
      expect([err.status, err.code, err.tip, err.msg, err.kind]).toEqual([428, 428, '请先绑定验证器', 'enrol', 'http'])
      expect(err.data).toEqual({ enrol: { ticket: 't' } })
    }
  })

  it('treats a 2xx envelope with another code as an error of that code', () => {
    expect(() => unwrap(200, JSON.stringify({ code: 409, tip: '冲突' }))).toThrow(expect.objectContaining({ status: 409, tip: '冲突' }))
  })

  it('answers a body that is not an envelope with a generic tip', () => {
    expect(() => unwrap(502, '<html>bad gateway</html>')).toThrow(expect.objectContaining({ status: 502, kind: 'http', tip: '服务器开小差了，请稍后再试' }))
    expect(() => unwrap(200, 'not json')).toThrow(expect.objectContaining({ kind: 'parse' }))
    expect(() => unwrap(403, JSON.stringify({ code: 403, tip: '   ' }))).toThrow(expect.objectContaining({ tip: '请求失败（403）' }))
  })
})

describe('query', () => {
  it('sorts keys and leaves out empty values', () => {
    expect(query({ b: 2, a: 'x y', c: null, d: undefined, e: '', f: false, g: 0 })).toBe('?a=x+y&b=2&f=false&g=0')
    expect(query({})).toBe('')
    expect(query()).toBe('')
  })
})

describe('createClient', () => {
  it('sends the token, the JSON body and the params, and unwraps the answer', async () => {
    const s = fakeServer([ok({ list: [] }), ok({ revoked: true })])
    const c = createClient(hooks(), s.fetchImpl)
    expect(await c.get('/api/admin/audit', { limit: 50, action: 'user.role' })).toEqual({ list: [] })
    expect(await c.post('/api/admin/sessions/revoke', { id: 7 })).toEqual({ revoked: true })
    expect(s.seen[0]).toMatchObject({ method: 'GET', url: '/api/admin/audit?action=user.role&limit=50' })
    expect(s.seen[0].headers.Authorization).toBe('Bearer tok-1')
    expect(s.seen[1]).toMatchObject({ method: 'POST', body: { id: 7 } })
    expect(s.seen[1].headers['Content-Type']).toBe('application/json')
  })

  it('sends no token when there is none', async () => {
    const s = fakeServer([ok({})])
    await createClient(hooks({ token: () => null }), s.fetchImpl).get('/api/admin/session')
    expect(s.seen[0].headers.Authorization).toBeUndefined()
  })

  it('turns a 401 on a signed-in call into the unauthorized hook and rejects', async () => {
    const h = hooks()
    const s = fakeServer([refuse(401, '登录已过期，请重新登录')])
    await expect(createClient(h, s.fetchImpl).get('/api/admin/session')).rejects.toMatchObject({ status: 401, tip: '登录已过期，请重新登录' })
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1)
    expect(h.stepUp).not.toHaveBeenCalled()
  })

  it('leaves a 401 of a sign-in call (auth: false) to the caller, without the token', async () => {
    const h = hooks()
    const s = fakeServer([refuse(401, '账号、密码或验证码错误')])
    await expect(createClient(h, s.fetchImpl).post('/api/admin/session', { account: 'a' }, { auth: false })).rejects.toMatchObject({ status: 401 })
    expect(h.onUnauthorized).not.toHaveBeenCalled()
    expect(s.seen[0].headers.Authorization).toBeUndefined()
  })

  it('asks for a step-up on 403 {stepUp: true} and sends the call again once', async () => {
    const h = hooks()
    const s = fakeServer([refuse(403, '请输入动态验证码以继续', { stepUp: true }), ok({ uid: 9 })])
    const got = await createClient(h, s.fetchImpl).post('/api/admin/operators/role', { uid: 9, role: 'support' })
    expect(got).toEqual({ uid: 9 })
    expect(h.stepUp).toHaveBeenCalledTimes(1)
    expect(h.stepUp.mock.calls[0][0]).toMatchObject({ status: 403, needsStepUp: true })
    expect(s.seen.map((x) => x.url)).toEqual(['/api/admin/operators/role', '/api/admin/operators/role'])
    expect(s.seen[1].body).toEqual({ uid: 9, role: 'support' })
  })

  it('rejects with the 403 when the operator cancels the prompt, without sending again', async () => {
    const h = hooks({ stepUp: vi.fn<ClientHooks['stepUp']>(async () => false) })
    const s = fakeServer([refuse(403, '请输入动态验证码以继续', { stepUp: true })])
    await expect(createClient(h, s.fetchImpl).post('/api/admin/operators', { account: 'x', role: 'content' })).rejects.toMatchObject({ status: 403, needsStepUp: true })
    expect(s.seen).toHaveLength(1)
  })

  it('retries only once: a second step-up refusal is the answer', async () => {
    const h = hooks()
    const stepUp = refuse(403, '请输入动态验证码以继续', { stepUp: true })
    const s = fakeServer([stepUp, stepUp])
    await expect(createClient(h, s.fetchImpl).post('/api/admin/operators/reset-totp', { uid: 3 })).rejects.toMatchObject({ status: 403 })
    expect(h.stepUp).toHaveBeenCalledTimes(1)
    expect(s.seen).toHaveLength(2)
  })

  it('does not prompt for a plain 403, nor for the stepup call itself', async () => {
    const h = hooks()
    const s = fakeServer([refuse(403, '没有权限'), refuse(403, '请输入动态验证码以继续', { stepUp: true })])
    const c = createClient(h, s.fetchImpl)
    await expect(c.get('/api/admin/operators')).rejects.toMatchObject({ status: 403, tip: '没有权限', needsStepUp: false })
    await expect(c.post('/api/admin/session/stepup', { code: '123456' }, { stepUp: false })).rejects.toMatchObject({ status: 403 })
    expect(h.stepUp).not.toHaveBeenCalled()
  })

  it('a 401 after a step-up still ends the session', async () => {
    const h = hooks()
    const s = fakeServer([refuse(403, '请输入动态验证码以继续', { stepUp: true }), refuse(401, '登录已过期，请重新登录')])
    await expect(createClient(h, s.fetchImpl).post('/api/admin/operators', {})).rejects.toMatchObject({ status: 401 })
    expect(h.onUnauthorized).toHaveBeenCalledTimes(1)
  })

  it('reports a failed connection as a network error', async () => {
    const c = createClient(hooks(), async () => {
      throw new TypeError('Failed to fetch')
    })
    await expect(c.get('/api/admin/session')).rejects.toMatchObject({ status: 0, kind: 'network' })
  })

  it('downloads a file with its name, and reads an error answer as an envelope', async () => {
    const s = fakeServer([
      { status: 200, raw: 'id,at\n1,2026\n', headers: { 'Content-Type': 'text/csv', 'Content-Disposition': 'attachment; filename="audit-2026.csv"' } },
      refuse(403, '请输入动态验证码以继续', { stepUp: true }),
      { status: 200, raw: 'id\n', headers: { 'Content-Type': 'text/csv' } },
    ])
    const h = hooks()
    const c = createClient(h, s.fetchImpl)
    const f = await c.download('/api/admin/audit.csv', { action: 'user.role' })
    expect(f.filename).toBe('audit-2026.csv')
    expect(await f.blob.text()).toBe('id,at\n1,2026\n')
    expect(s.seen[0].url).toBe('/api/admin/audit.csv?action=user.role')
    expect((await c.download('/api/admin/audit.csv')).filename).toBe('download')
    expect(h.stepUp).toHaveBeenCalledTimes(1)
  })
})

describe('shareStepUp', () => {
  it('shows one prompt to calls refused at the same moment, and a new one afterwards', async () => {
    let resolve!: (v: boolean) => void
    const ask = vi.fn(() => new Promise<boolean>((r) => (resolve = r)))
    const shared = shareStepUp(ask)
    const err = new ApiError({ status: 403, code: 403, tip: 't', msg: '', data: { stepUp: true }, kind: 'http' })
    const a = shared(err)
    const b = shared(err)
    resolve(true)
    expect(await Promise.all([a, b])).toEqual([true, true])
    expect(ask).toHaveBeenCalledTimes(1)
    const c = shared(err)
    resolve(false)
    expect(await c).toBe(false)
    expect(ask).toHaveBeenCalledTimes(2)
  })
})
