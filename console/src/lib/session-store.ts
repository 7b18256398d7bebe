// Where the console keeps its own session: the token of POST
// /api/admin/session (never the phone app's, which lives under another key
// and opens nothing here) and when it ends. localStorage, so a second tab
// of the console is signed in too; the server still ends it after 30
// minutes idle or 12 hours at most.
import { toMillis, type Timestamp } from './time'

const KEY = 'prima_console_session'

export interface Stored {
  token: string
  expiresAt: Timestamp
}

type Listener = () => void
const listeners = new Set<Listener>()

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    return null
  }
}

export function readSession(now = Date.now()): Stored | null {
  const raw = storage()?.getItem(KEY)
  if (!raw) return null
  try {
    const s = JSON.parse(raw) as Partial<Stored>
    if (typeof s.token !== 'string' || s.token === '') return null
    const end = s.expiresAt === undefined ? null : toMillis(s.expiresAt)
    if (end !== null && end <= now) return null
    return { token: s.token, expiresAt: s.expiresAt ?? 0 }
  } catch {
    return null
  }
}

export function token(): string | null {
  return readSession()?.token ?? null
}

export function saveSession(s: Stored): void {
  storage()?.setItem(KEY, JSON.stringify(s))
  listeners.forEach((l) => l())
}

export function clearSession(): void {
  storage()?.removeItem(KEY)
  listeners.forEach((l) => l())
}

export function onSessionChange(l: Listener): () => void {
  listeners.add(l)
  return () => listeners.delete(l)
}
