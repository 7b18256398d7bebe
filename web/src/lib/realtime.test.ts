import { describe, expect, it } from 'vitest'
import {
  BACKOFF_MAX_MS,
  CLOSE_SESSION_INVALID,
  CLOSE_TOO_SLOW,
  RealtimeClient,
  STABLE_MS,
  backoffDelay,
  parseEvent,
  protocols,
  shouldReconnect,
  wsURL,
  type RealtimeEvent,
  type SocketLike,
} from './realtime'

describe('wire helpers', () => {
  it('puts the token in the subprotocol list, never the URL', () => {
    expect(protocols('abc_-123')).toEqual(['prima.v1', 'bearer.abc_-123'])
    expect(wsURL('', 'https://m.example.com')).toBe('wss://m.example.com/api/app/ws')
    expect(wsURL('', 'http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/api/app/ws')
    expect(wsURL('https://api2.example.com', 'http://localhost:5173')).toBe('wss://api2.example.com/api/app/ws')
  })

  it('parses events and rejects anything else', () => {
    expect(parseEvent('{"type":"profile.changed","data":{"uid":7},"at":"2026-11-22T22:00:00Z"}')).toEqual({
      type: 'profile.changed',
      data: { uid: 7 },
      at: '2026-11-22T22:00:00Z',
    })
    expect(parseEvent('{"type":"x"}')).toEqual({ type: 'x', data: null, at: '' })
    for (const bad of ['', 'nope', 'null', '[]', '{"type":""}', '{"type":3}', '{"data":1}']) {
      expect(parseEvent(bad)).toBeNull()
    }
    expect(parseEvent(new ArrayBuffer(2))).toBeNull()
  })

  it('backs off exponentially with jitter, capped', () => {
    expect(backoffDelay(0, () => 0)).toBe(500)
    expect(backoffDelay(0, () => 1)).toBe(1000)
    expect(backoffDelay(3, () => 1)).toBe(8000)
    expect(backoffDelay(4, () => 0.5)).toBe(12000)
    expect(backoffDelay(10, () => 1)).toBe(BACKOFF_MAX_MS)
    expect(backoffDelay(1e6, () => 0)).toBe(BACKOFF_MAX_MS / 2)
  })

  it('retries every close but a dead session', () => {
    expect(shouldReconnect(CLOSE_SESSION_INVALID)).toBe(false)
    for (const code of [1000, 1001, 1006, 1011, CLOSE_TOO_SLOW]) expect(shouldReconnect(code)).toBe(true)
  })
})

class FakeSocket implements SocketLike {
  onopen: ((ev: Event) => void) | null = null
  onmessage: ((ev: MessageEvent) => void) | null = null
  onclose: ((ev: CloseEvent) => void) | null = null
  onerror: ((ev: Event) => void) | null = null
  closed: number | null = null
  constructor(
    public url: string,
    public protocols: string[],
  ) {}
  close(code = 1000) {
    this.closed = code
  }
  open() {
    this.onopen?.({} as Event)
  }
  send(ev: object | string) {
    this.onmessage?.({ data: typeof ev === 'string' ? ev : JSON.stringify(ev) } as MessageEvent)
  }
  drop(code: number) {
    this.onclose?.({ code } as CloseEvent)
  }
}

// A manual clock: timers run only when the test advances it.
function harness() {
  const sockets: FakeSocket[] = []
  let now = 0
  let seq = 0
  const timers = new Map<number, { at: number; fn: () => void }>()
  const client = new RealtimeClient({
    url: () => 'ws://test/api/app/ws',
    open: (url, p) => {
      const s = new FakeSocket(url, p)
      sockets.push(s)
      return s
    },
    setTimeout: (fn, ms) => {
      timers.set(++seq, { at: now + ms, fn })
      return seq
    },
    clearTimeout: (id) => timers.delete(id as number),
    random: () => 1,
  })
  const advance = (ms: number) => {
    now += ms
    for (;;) {
      const due = [...timers.entries()].filter(([, t]) => t.at <= now).sort((a, b) => a[1].at - b[1].at)[0]
      if (!due) return
      timers.delete(due[0])
      due[1].fn()
    }
  }
  const last = () => sockets[sockets.length - 1]
  return { client, sockets, advance, last, pending: () => timers.size }
}

describe('RealtimeClient', () => {
  it('connects only while there is a token, with it in the protocols', () => {
    const h = harness()
    expect(h.sockets).toHaveLength(0)
    h.client.setToken('t1')
    expect(h.sockets).toHaveLength(1)
    expect(h.last().protocols).toEqual(['prima.v1', 'bearer.t1'])
    h.client.setToken('t1')
    expect(h.sockets).toHaveLength(1)
    // A new token (registration, another account) replaces the socket.
    h.client.setToken('t2')
    expect(h.sockets[0].closed).toBe(1000)
    expect(h.last().protocols).toEqual(['prima.v1', 'bearer.t2'])
    h.client.setToken(null)
    expect(h.sockets[1].closed).toBe(1000)
    expect(h.client.active).toBe(false)
    h.advance(60_000)
    expect(h.sockets).toHaveLength(2)
  })

  it('reports whether a socket is open, for the polling fallback', () => {
    const h = harness()
    const states: boolean[] = []
    h.client.onState((c) => states.push(c))
    h.client.setToken('t')
    expect(h.client.connected).toBe(false) // opening is not open
    h.last().open()
    expect(h.client.connected).toBe(true)
    h.last().drop(1006)
    expect(h.client.connected).toBe(false)
    h.advance(60_000)
    h.last().open()
    h.client.setToken(null)
    expect(states).toEqual([true, false, true, false])
    expect(h.client.connected).toBe(false)
  })

  it('dispatches events by type and to * listeners', () => {
    const h = harness()
    const seen: string[] = []
    const off = h.client.on('profile.changed', (ev: RealtimeEvent) => seen.push(`p:${JSON.stringify(ev.data)}`))
    h.client.on('*', (ev) => seen.push(`*:${ev.type}`))
    h.client.setToken('t')
    h.last().open()
    h.last().send({ type: 'profile.changed', data: { uid: 7 }, at: '2026-11-22T22:00:00Z' })
    h.last().send({ type: 'session.revoked', data: { sid: 'x' }, at: '' })
    h.last().send('garbage')
    off()
    h.last().send({ type: 'profile.changed', data: null, at: '' })
    expect(seen).toEqual(['p:{"uid":7}', '*:profile.changed', '*:session.revoked', '*:profile.changed'])
  })

  it('reconnects with growing delays, resets once stable, and says so', () => {
    const h = harness()
    let reconnects = 0
    h.client.onReconnect(() => reconnects++)
    h.client.setToken('t')
    h.last().open()
    expect(reconnects).toBe(0) // the first open is no reconnect
    h.last().drop(1006)
    h.advance(999)
    expect(h.sockets).toHaveLength(1)
    h.advance(1)
    expect(h.sockets).toHaveLength(2)
    h.last().drop(1006) // failed before opening
    h.advance(1999)
    expect(h.sockets).toHaveLength(2)
    h.advance(1)
    expect(h.sockets).toHaveLength(3)
    h.last().open()
    expect(reconnects).toBe(1)
    // Open long enough: the next drop starts from 1 s again.
    h.advance(STABLE_MS)
    h.last().drop(CLOSE_TOO_SLOW)
    h.advance(1000)
    expect(h.sockets).toHaveLength(4)
  })

  it('stops after 4001 until the token changes', () => {
    const h = harness()
    let ended = 0
    h.client.onSessionEnded(() => ended++)
    h.client.setToken('old')
    h.last().open()
    h.last().drop(1006)
    expect(ended).toBe(0)
    h.advance(1000)
    h.last().open()
    h.last().drop(CLOSE_SESSION_INVALID)
    expect(ended).toBe(1)
    h.advance(5 * 60_000)
    expect(h.sockets).toHaveLength(2)
    expect(h.pending()).toBe(0)
    h.client.setToken('new')
    expect(h.sockets).toHaveLength(3)
    expect(h.last().protocols[1]).toBe('bearer.new')
  })

  it('nudge skips the wait, and only when one is pending', () => {
    const h = harness()
    h.client.setToken('t')
    h.client.nudge() // opening already: nothing happens
    expect(h.sockets).toHaveLength(1)
    h.last().drop(1006)
    h.client.nudge()
    expect(h.sockets).toHaveLength(2)
    h.advance(60_000) // the cancelled timer does not open a third
    expect(h.sockets).toHaveLength(2)
  })

  it('ignores a replaced socket closing late', () => {
    const h = harness()
    h.client.setToken('a')
    const first = h.last()
    h.client.setToken('b')
    first.drop(1006) // its handlers were detached; nothing schedules
    expect(first.onclose).toBeNull()
    h.advance(60_000)
    expect(h.sockets).toHaveLength(2)
  })

  it('retries when the socket cannot even be created', () => {
    let fail = true
    const made: string[] = []
    const timers: Array<() => void> = []
    const c = new RealtimeClient({
      url: () => 'ws://x',
      open: (u) => {
        if (fail) throw new Error('SecurityError')
        made.push(u)
        return new FakeSocket(u, [])
      },
      setTimeout: (fn) => timers.push(fn),
      clearTimeout: () => {},
    })
    c.setToken('t')
    expect(made).toHaveLength(0)
    expect(timers).toHaveLength(1)
    fail = false
    timers[0]()
    expect(made).toHaveLength(1)
  })
})
