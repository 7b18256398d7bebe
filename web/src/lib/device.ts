// The device id identifies this browser to the server for guest login
// (POST /api/app/mine/login {devID}). Spec §4: generated once, 16 random
// alphanumerics followed by a millisecond timestamp, then persisted; the
// server accepts only that shape (api-contract: 10-13 timestamp digits).
import { cookie, CREDENTIAL_COOKIE_DAYS, PREFIX, storage } from './storage'

export const DEVICE_ID_KEY = 'device_id'
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'
const DEVICE_ID_RE = /^[A-Za-z0-9]{16}\d{10,13}$/

// secureRandom is in [0, 1) like Math.random, but from the CSPRNG when the
// browser has one: the id doubles as a guest credential, so it must not be
// guessable.
function secureRandom(): number {
  const c = globalThis.crypto
  if (c?.getRandomValues) return c.getRandomValues(new Uint32Array(1))[0] / 2 ** 32
  return Math.random()
}

export function makeDeviceId(random: () => number = secureRandom, now: () => number = Date.now): string {
  let s = ''
  for (let i = 0; i < 16; i++) {
    // Clamp: a random source returning exactly 1 must not index past the end.
    const r = Math.min(Math.max(random(), 0), 0.999999999)
    s += ALPHABET[Math.floor(r * ALPHABET.length)]
  }
  return s + String(Math.floor(Math.abs(now())))
}

export function isDeviceId(s: unknown): s is string {
  return typeof s === 'string' && DEVICE_ID_RE.test(s)
}

let cached: string | null = null

// deviceId returns this browser's id, creating and persisting it on first
// use. Storage wins over the cookie; a copy missing from either is restored
// so both agree. The module cache keeps the id stable for the page's life
// even when storage and cookies are both unavailable.
export function deviceId(): string {
  if (cached) return cached
  const fromStorage = storage.get<unknown>(DEVICE_ID_KEY)
  const fromCookie = cookie.get(PREFIX + DEVICE_ID_KEY)
  const id = isDeviceId(fromStorage) ? fromStorage : isDeviceId(fromCookie) ? fromCookie : makeDeviceId()
  if (fromStorage !== id) storage.set(DEVICE_ID_KEY, id)
  if (fromCookie !== id) cookie.set(PREFIX + DEVICE_ID_KEY, id, CREDENTIAL_COOKIE_DAYS)
  cached = id
  return id
}
