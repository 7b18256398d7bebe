import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  API_CHECK_TIMEOUT_MS,
  LineReporter,
  MEDIA_CHECK_TIMEOUT_MS,
  apiBase,
  checkApiLine,
  checkMediaLine,
  chooseLines,
  decodeFallback,
  mediaURL,
  type Fetch,
  type LineReport,
} from './lines'

// A fake network: each URL answers after a delay with a response, fails
// with a network error, or never answers; an abort rejects like a browser.
type Route = { after: number; res?: () => Response; fail?: boolean } | 'hang'

function fakeFetch(routes: Record<string, Route>) {
  const calls: string[] = []
  const fn: Fetch = (url, init) => {
    calls.push(url)
    const r = routes[url]
    return new Promise<Response>((resolve, reject) => {
      const abort = () => reject(new DOMException('aborted', 'AbortError'))
      init.signal?.addEventListener('abort', abort)
      if (!r) return reject(new TypeError('Failed to fetch'))
      if (r === 'hang') return
      setTimeout(() => (r.fail ? reject(new TypeError('Failed to fetch')) : resolve(r.res!())), r.after)
    })
  }
  return { fn, calls }
}

const text = (body: string, status = 200) => () => new Response(body, { status })
const envelope = (code: number, status = 200) => () => new Response(JSON.stringify({ code, tip: '', msg: '', data: { ok: true } }), { status })
const okMedia = (after: number): Route => ({ after, res: text('ok') })
const okAPI = (after: number): Route => ({ after, res: envelope(200) })
const b64 = (s: string) => btoa(String.fromCharCode(...new TextEncoder().encode(s)))

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

// settle runs a promise to the end under fake timers.
async function settle<T>(p: Promise<T>, ms = 10_000): Promise<T> {
  await vi.advanceTimersByTimeAsync(ms)
  return p
}

describe('line checks', () => {
  it('takes a media line that answers ok', async () => {
    const { fn } = fakeFetch({ 'https://m.example/check': okMedia(10) })
    expect(await settle(checkMediaLine(fn, 'https://m.example/'))).toBeNull()
  })

  it('fails a media line that answers something else or another status', async () => {
    const { fn } = fakeFetch({ 'https://a.example/check': { after: 5, res: text('nope') }, 'https://b.example/check': { after: 5, res: text('ok', 503) } })
    expect(await settle(checkMediaLine(fn, 'https://a.example'))).toBe('bad answer')
    expect(await settle(checkMediaLine(fn, 'https://b.example'))).toBe('http 503')
  })

  it('times a media line out after 1 s, not before', async () => {
    const { fn } = fakeFetch({ 'https://slow.example/check': 'hang' })
    let result: string | null | undefined
    const p = checkMediaLine(fn, 'https://slow.example').then((r) => (result = r))
    await vi.advanceTimersByTimeAsync(MEDIA_CHECK_TIMEOUT_MS - 1)
    expect(result).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    await p
    expect(result).toBe('timeout')
  })

  it('needs HTTP 200 and envelope code 200 from an API line', async () => {
    const { fn } = fakeFetch({
      'https://ok.example/api/app/ping/check': okAPI(5),
      'https://503.example/api/app/ping/check': { after: 5, res: envelope(503, 503) },
      'https://biz.example/api/app/ping/check': { after: 5, res: envelope(500) },
      'https://html.example/api/app/ping/check': { after: 5, res: text('<html>') },
    })
    expect(await settle(checkApiLine(fn, 'https://ok.example'))).toBeNull()
    expect(await settle(checkApiLine(fn, 'https://503.example'))).toBe('http 503')
    expect(await settle(checkApiLine(fn, 'https://biz.example'))).toBe('code 500')
    expect(await settle(checkApiLine(fn, 'https://html.example'))).toBe('bad answer')
    expect(await settle(checkApiLine(fn, 'https://nowhere.example'))).toBe('network')
  })

  it('gives an API line 3 s', async () => {
    const { fn } = fakeFetch({ 'https://late.example/api/app/ping/check': okAPI(API_CHECK_TIMEOUT_MS + 1), 'https://inTime.example/api/app/ping/check': okAPI(API_CHECK_TIMEOUT_MS - 100) })
    expect(await settle(checkApiLine(fn, 'https://late.example'))).toBe('timeout')
    expect(await settle(checkApiLine(fn, 'https://inTime.example'))).toBeNull()
  })
})

describe('chooseLines', () => {
  it('races the media lines: the fastest ok wins, a line over 1 s loses', async () => {
    const { fn, calls } = fakeFetch({
      'https://slow.example/check': okMedia(1500), // would answer, but after the timeout
      'https://fast.example/check': okMedia(40),
      'https://mid.example/check': okMedia(300),
      'https://api.example/api/app/ping/check': okAPI(5),
    })
    const c = await settle(
      chooseLines(fn, { api: ['https://api.example'], image: ['https://slow.example', 'https://mid.example', 'https://fast.example'], video: ['https://slow.example', 'https://mid.example'] }),
    )
    expect(c.image).toBe('https://fast.example')
    expect(c.video).toBe('https://mid.example')
    // All at once, and a line in both lists is checked once.
    expect(calls.filter((u) => u.endsWith('/check') && !u.includes('/api/')).sort()).toEqual(['https://fast.example/check', 'https://mid.example/check', 'https://slow.example/check'])
    expect(c.failures).toEqual({})
  })

  it('lets a media line answering at 0.9 s win and one at 1.2 s lose (the spec\'s 1 s)', async () => {
    const { fn } = fakeFetch({ 'https://a.example/check': okMedia(900), 'https://b.example/check': okMedia(1200), 'https://api.example/api/app/ping/check': okAPI(5) })
    const c = await settle(chooseLines(fn, { api: ['https://api.example'], image: ['https://a.example'], video: ['https://b.example'] }))
    expect(c.image).toBe('https://a.example')
    expect(c.video).toBeNull()
    expect(c.failures).toEqual({ 'https://b.example': 'timeout' })
  })

  it('gives API lines the spec\'s 3 s', async () => {
    const { fn } = fakeFetch({ 'https://a.example/api/app/ping/check': okAPI(3200), 'https://b.example/api/app/ping/check': okAPI(2800) })
    const c = await settle(chooseLines(fn, { api: ['https://a.example', 'https://b.example'], image: [], video: [] }))
    expect(c.api).toBe('https://b.example')
    expect(c.failures).toEqual({ 'https://a.example': 'timeout' })
  })

  it('names media lines that are all down', async () => {
    const { fn } = fakeFetch({ 'https://a.example/check': 'hang', 'https://b.example/check': { after: 1, fail: true }, 'https://api.example/api/app/ping/check': okAPI(5) })
    const c = await settle(chooseLines(fn, { api: ['https://api.example'], image: ['https://a.example', 'https://b.example'], video: [] }))
    expect(c.image).toBeNull()
    expect(c.video).toBeNull()
    expect(c.failures).toEqual({ 'https://a.example': 'timeout', 'https://b.example': 'network' })
  })

  it('takes the first working API line in list order, not the fastest', async () => {
    const { fn, calls } = fakeFetch({
      'https://dead.example/api/app/ping/check': { after: 2, fail: true },
      'https://second.example/api/app/ping/check': okAPI(800),
      'https://third.example/api/app/ping/check': okAPI(10),
    })
    let chosen: string | null | undefined
    const p = chooseLines(fn, { api: ['https://dead.example', 'https://second.example', 'https://third.example'], image: [], video: [] }).then((c) => {
      chosen = c.api
      return c
    })
    // All checks leave at once.
    expect(calls).toHaveLength(3)
    await vi.advanceTimersByTimeAsync(100)
    expect(chosen).toBeUndefined() // third answered, but second may still
    const c = await settle(p)
    expect(c.api).toBe('https://second.example')
    expect(c.failures).toEqual({ 'https://dead.example': 'network' })
  })

  it('falls back to the fallback file when every API line is down', async () => {
    const file = b64(JSON.stringify({ ios: ['https://down2.example', 'javascript:alert(1)', 'https://spare.example/', 42] }))
    const { fn, calls } = fakeFetch({
      'https://down.example/api/app/ping/check': { after: 1, res: envelope(502, 502) },
      'https://cdn.example/broken.txt': { after: 1, res: text('%%% not base64') },
      'https://cdn.example/lines.txt': { after: 1, res: text(file.slice(0, 10) + '\n' + file.slice(10).replace(/=+$/, '')) },
      'https://down2.example/api/app/ping/check': 'hang',
      'https://spare.example/api/app/ping/check': okAPI(20),
    })
    const c = await settle(chooseLines(fn, { api: ['https://down.example'], image: [], video: [], fallback: ['https://cdn.example/broken.txt', 'https://cdn.example/lines.txt'] }))
    expect(c.api).toBe('https://spare.example')
    expect(c.failures).toEqual({ 'https://down.example': 'http 502', 'https://down2.example': 'timeout' })
    expect(calls.some((u) => u.startsWith('javascript'))).toBe(false)
  })

  it('answers null when the fallback is down too', async () => {
    const { fn } = fakeFetch({})
    const c = await settle(chooseLines(fn, { api: ['https://a.example'], image: [], video: [], fallback: ['https://cdn.example/lines.txt'] }))
    expect(c.api).toBeNull()
    expect(c.failures).toEqual({ 'https://a.example': 'network' })
  })
})

describe('decodeFallback', () => {
  it('reads base64 JSON with an ios list', () => {
    expect(decodeFallback(b64('{"ios":["https://a.example","https://a.example/","http://b.example:8080"]}'))).toEqual(['https://a.example', 'http://b.example:8080'])
  })
  it('accepts URL-safe base64', () => {
    const s = b64('{"ios":["https://a.example/?>>>"]}').replace(/\+/g, '-').replace(/\//g, '_')
    expect(decodeFallback(s)).toEqual(['https://a.example/?>>>'])
  })
  it('gives nothing for garbage', () => {
    for (const bad of ['', '!!!', b64('not json'), b64('{"android":["https://a.example"]}'), b64('{"ios":"https://a.example"}'), b64('null'), b64('{"ios":["ftp://x", "https://u:p@x.example"]}'), btoa('\xff\xfe')]) {
      expect(decodeFallback(bad)).toEqual([])
    }
  })
  it('bounds the list', () => {
    const many = Array.from({ length: 50 }, (_, i) => `https://l${i}.example`)
    expect(decodeFallback(b64(JSON.stringify({ ios: many })))).toHaveLength(20)
  })
})

describe('LineReporter', () => {
  const ctx = { appname: 'Prima', appv: '1.1.3', dev: 'ios', userid: 7 }

  it('reports each failed line once per session and swallows failures', async () => {
    vi.useRealTimers()
    const sent: LineReport[] = []
    let fail = true
    const r = new LineReporter(async (body) => {
      sent.push(body)
      if (fail) throw new Error('offline')
    })
    expect(await r.report({}, ctx)).toBe(false)
    expect(sent).toHaveLength(0)
    await expect(r.report({ 'https://a.example': 'timeout' }, ctx)).resolves.toBe(false) // swallowed
    fail = false
    expect(await r.report({ 'https://a.example': 'timeout', 'https://b.example': 'http 502' }, ctx)).toBe(true)
    expect(await r.report({ 'https://a.example': 'network' }, ctx)).toBe(false)
    expect(sent).toEqual([
      { kind: 'line', ...ctx, domain: { 'https://a.example': 'timeout' } },
      { kind: 'line', ...ctx, domain: { 'https://b.example': 'http 502' } },
    ])
  })
})

describe('bases', () => {
  it('puts media paths on the chosen line', () => {
    expect(mediaURL('/media/covers/1.jpg', 'https://img.example/')).toBe('https://img.example/media/covers/1.jpg')
    expect(mediaURL('/media/covers/1.jpg', null)).toBe('/media/covers/1.jpg')
    expect(mediaURL('/media/covers/1.jpg', 'https://here.example', 'https://here.example')).toBe('/media/covers/1.jpg')
    expect(mediaURL('https://cdn.example/x.jpg', 'https://img.example')).toBe('https://cdn.example/x.jpg')
    expect(mediaURL('//cdn.example/x.jpg', 'https://img.example')).toBe('//cdn.example/x.jpg')
    expect(mediaURL('data:image/png;base64,AAAA', 'https://img.example')).toBe('data:image/png;base64,AAAA')
  })
  it('keeps the API on this origin when the line is this origin', () => {
    expect(apiBase('http://127.0.0.1:8080/', 'http://127.0.0.1:8080')).toBe('')
    expect(apiBase('https://api.example', 'http://127.0.0.1:8080')).toBe('https://api.example')
    expect(apiBase(null, 'http://127.0.0.1:8080')).toBe('')
  })
})
