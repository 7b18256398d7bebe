// The realtime connection (docs/api.md "Realtime"): one WebSocket to
// GET /api/app/ws while signed in, carrying events such as
// {"type":"profile.changed","data":{"uid":7},"at":"..."}.
//
// - The token travels in the subprotocol list, ['prima.v1', 'bearer.<token>']:
//   a browser cannot set headers on a WebSocket, and a token in the URL
//   would land in access logs.
// - Delivery is at most once. Events are hints to refetch; after a
//   reconnect the caller refetches what it shows (onReconnect), because
//   anything sent meanwhile is lost.
// - It reconnects with capped, jittered exponential backoff, except after
//   close code 4001 (the session is gone): then it waits for a new token.
//
// Everything browser-specific is injected, so the logic runs under Vitest.

export const PROTOCOL = 'prima.v1'

// Close codes of the server (docs/api.md).
export const CLOSE_SESSION_INVALID = 4001
export const CLOSE_TOO_SLOW = 4008

export interface RealtimeEvent {
  type: string
  data: unknown
  at: string
}

export type Listener = (ev: RealtimeEvent) => void

// protocols is the subprotocol list that carries the token.
export function protocols(token: string): string[] {
  return [PROTOCOL, `bearer.${token}`]
}

// wsURL turns the API base URL ('' for this origin) into the endpoint's
// ws:// or wss:// URL.
export function wsURL(base: string, origin: string): string {
  const u = new URL('/api/app/ws', base || origin)
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:'
  return u.toString()
}

// parseEvent reads one message, or null when it is not an event.
export function parseEvent(raw: unknown): RealtimeEvent | null {
  if (typeof raw !== 'string') return null
  try {
    const v = JSON.parse(raw) as Partial<RealtimeEvent> | null
    if (!v || typeof v !== 'object' || typeof v.type !== 'string' || v.type === '') return null
    return { type: v.type, data: v.data ?? null, at: typeof v.at === 'string' ? v.at : '' }
  } catch {
    return null
  }
}

export const BACKOFF_BASE_MS = 1_000
export const BACKOFF_MAX_MS = 30_000

// backoffDelay is the wait before reconnect attempt n (0-based): doubling
// from 1 s up to 30 s, with the upper half jittered so a server restart is
// not met by every phone at the same instant.
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.min(attempt, 16))
  return Math.round(cap / 2 + (cap / 2) * random())
}

// shouldReconnect says whether a close code is worth retrying with the same
// token. 4001 is not: only a new token helps.
export function shouldReconnect(code: number): boolean {
  return code !== CLOSE_SESSION_INVALID
}

// The part of WebSocket the client uses.
export interface SocketLike {
  onopen: ((ev: Event) => void) | null
  onmessage: ((ev: MessageEvent) => void) | null
  onclose: ((ev: CloseEvent) => void) | null
  onerror: ((ev: Event) => void) | null
  close(code?: number, reason?: string): void
}

export interface RealtimeDeps {
  url: () => string
  open: (url: string, protocols: string[]) => SocketLike
  setTimeout: (fn: () => void, ms: number) => unknown
  clearTimeout: (id: unknown) => void
  random?: () => number
}

// A connection that stayed open this long counts as healthy: the next
// failure starts the backoff from the beginning again.
export const STABLE_MS = 10_000

export class RealtimeClient {
  private token: string | null = null
  private sock: SocketLike | null = null
  private timer: unknown = null
  private stableTimer: unknown = null
  private attempt = 0
  private everOpened = false
  private listeners = new Map<string, Set<Listener>>()
  private reconnectListeners = new Set<() => void>()
  private endedListeners = new Set<() => void>()
  private stateListeners = new Set<(connected: boolean) => void>()
  private isOpen = false

  constructor(private deps: RealtimeDeps) {}

  // on listens for one event type ('*' for all); it returns the unsubscribe.
  on(type: string, fn: Listener): () => void {
    let set = this.listeners.get(type)
    if (!set) this.listeners.set(type, (set = new Set()))
    set.add(fn)
    return () => set.delete(fn)
  }

  // onReconnect runs after every open but the first for a token: events
  // may have been missed, so refetch.
  onReconnect(fn: () => void): () => void {
    this.reconnectListeners.add(fn)
    return () => this.reconnectListeners.delete(fn)
  }

  // onSessionEnded runs when the server closes with 4001: this token is
  // dead. Another tab may already hold its successor (registration swaps
  // the guest token), so the caller can pass a new one to setToken.
  onSessionEnded(fn: () => void): () => void {
    this.endedListeners.add(fn)
    return () => this.endedListeners.delete(fn)
  }

  // setToken connects for token, or disconnects for null. The same token
  // again changes nothing.
  setToken(token: string | null): void {
    if (token === this.token) return
    this.token = token
    this.attempt = 0
    this.everOpened = false
    this.stop()
    if (token) this.connect()
  }

  // nudge reconnects now if a reconnect is waiting (the page became
  // visible, the network came back).
  nudge(): void {
    if (this.token && !this.sock && this.timer !== null) {
      this.deps.clearTimeout(this.timer)
      this.timer = null
      this.connect()
    }
  }

  // onState runs whenever the socket opens (true) or stops being open
  // (false): pages poll while it is not (the polling fallback).
  onState(fn: (connected: boolean) => void): () => void {
    this.stateListeners.add(fn)
    return () => this.stateListeners.delete(fn)
  }

  // connected: a socket is open now (events arrive).
  get connected(): boolean {
    return this.isOpen
  }

  private setOpen(open: boolean): void {
    if (open === this.isOpen) return
    this.isOpen = open
    this.stateListeners.forEach((fn) => fn(open))
  }

  // active: a socket is open or opening.
  get active(): boolean {
    return this.sock !== null
  }

  private stop(): void {
    if (this.timer !== null) this.deps.clearTimeout(this.timer)
    if (this.stableTimer !== null) this.deps.clearTimeout(this.stableTimer)
    this.timer = this.stableTimer = null
    const s = this.sock
    this.sock = null
    if (s) {
      s.onopen = s.onmessage = s.onclose = s.onerror = null
      s.close(1000, 'signed out')
    }
    this.setOpen(false)
  }

  private connect(): void {
    const token = this.token
    if (!token) return
    let s: SocketLike
    try {
      s = this.deps.open(this.deps.url(), protocols(token))
    } catch {
      this.schedule()
      return
    }
    this.sock = s
    s.onopen = () => {
      const again = this.everOpened
      this.everOpened = true
      this.setOpen(true)
      this.stableTimer = this.deps.setTimeout(() => {
        this.stableTimer = null
        this.attempt = 0
      }, STABLE_MS)
      if (again) this.reconnectListeners.forEach((fn) => fn())
    }
    s.onmessage = (m) => {
      const ev = parseEvent(m.data)
      if (!ev) return
      this.listeners.get(ev.type)?.forEach((fn) => fn(ev))
      this.listeners.get('*')?.forEach((fn) => fn(ev))
    }
    s.onclose = (c) => {
      if (this.sock !== s) return
      this.sock = null
      this.setOpen(false)
      if (this.stableTimer !== null) this.deps.clearTimeout(this.stableTimer)
      this.stableTimer = null
      if (shouldReconnect(c.code)) this.schedule()
      else this.endedListeners.forEach((fn) => fn())
    }
  }

  private schedule(): void {
    const delay = backoffDelay(this.attempt++, this.deps.random)
    this.timer = this.deps.setTimeout(() => {
      this.timer = null
      this.connect()
    }, delay)
  }
}

// browserDeps are the real WebSocket and timers; base gives the API line.
export function browserDeps(base: () => string): RealtimeDeps {
  return {
    url: () => wsURL(base(), location.origin),
    open: (url, p) => new WebSocket(url, p),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
  }
}
