import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cookie, getToken, PREFIX, setToken, storage } from './storage'
import { CookieJar, MemoryStorage } from './testing'

let ls: MemoryStorage
let jar: CookieJar

beforeEach(() => {
  ls = new MemoryStorage()
  jar = new CookieJar()
  vi.stubGlobal('localStorage', ls)
  vi.stubGlobal('document', jar)
})
afterEach(() => {
  vi.unstubAllGlobals()
})

describe('storage', () => {
  it('uses the prima_ prefix and JSON values', () => {
    expect(PREFIX).toBe('prima_')
    storage.set('user', { uid: 7, name: 'a' })
    expect(ls.map.get('prima_user')).toBe('{"uid":7,"name":"a"}')
    expect(storage.get<{ uid: number }>('user')).toEqual({ uid: 7, name: 'a' })
  })

  it('round-trips falsy values instead of confusing them with missing', () => {
    storage.set('zero', 0)
    storage.set('no', false)
    storage.set('blank', '')
    expect(storage.get('zero')).toBe(0)
    expect(storage.get('no')).toBe(false)
    expect(storage.get('blank')).toBe('')
    expect(storage.get('missing')).toBeNull()
  })

  it('does not read unprefixed keys', () => {
    ls.setItem('user', '1')
    expect(storage.get('user')).toBeNull()
  })

  it('removes', () => {
    storage.set('k', 1)
    storage.remove('k')
    expect(ls.map.has('prima_k')).toBe(false)
    storage.set('k', 1)
    storage.set('k', undefined)
    expect(storage.get('k')).toBeNull()
  })

  it('answers null for a value that is not JSON', () => {
    ls.setItem('prima_bad', '{not json')
    expect(storage.get('bad')).toBeNull()
  })

  it('swallows storage failures', () => {
    ls.broken = true
    expect(() => storage.set('k', 1)).not.toThrow()
    expect(storage.get('k')).toBeNull()
    expect(() => storage.remove('k')).not.toThrow()
  })

  it('works without a localStorage global at all', () => {
    vi.stubGlobal('localStorage', undefined)
    expect(() => storage.set('k', 1)).not.toThrow()
    expect(storage.get('k')).toBeNull()
  })
})

describe('cookie', () => {
  it('sets with max-age in days, path and SameSite, and reads back encoded values', () => {
    cookie.set('a', 'x y;z', 365)
    expect(jar.writes[0]).toContain('Max-Age=31536000')
    expect(jar.writes[0]).toContain('Path=/')
    expect(jar.writes[0]).toContain('SameSite=Lax')
    expect(cookie.get('a')).toBe('x y;z')
  })

  it('matches the whole name, not a suffix or prefix', () => {
    jar.jar.set('xprima_token', 'no')
    jar.jar.set('prima_token2', 'no')
    expect(cookie.get('prima_token')).toBeNull()
    jar.jar.set('prima_token', 'yes')
    expect(cookie.get('prima_token')).toBe('yes')
  })

  it('removes with max-age 0', () => {
    cookie.set('a', '1', 1)
    cookie.remove('a')
    expect(cookie.get('a')).toBeNull()
  })

  it('answers null without a document', () => {
    vi.stubGlobal('document', undefined)
    expect(cookie.get('a')).toBeNull()
    expect(() => cookie.set('a', '1', 1)).not.toThrow()
  })

  it('answers null for a malformed encoding', () => {
    jar.jar.set('a', '%E0%A4%A')
    expect(cookie.get('a')).toBeNull()
  })
})

describe('token', () => {
  it('is written to storage and to a one-year cookie', () => {
    setToken('tok1')
    expect(storage.get('token')).toBe('tok1')
    expect(cookie.get('prima_token')).toBe('tok1')
    expect(jar.writes.at(-1)).toContain('Max-Age=31536000')
    expect(getToken()).toBe('tok1')
  })

  it('falls back to the cookie when storage lost it', () => {
    setToken('tok2')
    ls.clear()
    expect(getToken()).toBe('tok2')
    ls.broken = true
    expect(getToken()).toBe('tok2')
  })

  it('null logs out from both places', () => {
    setToken('tok3')
    setToken(null)
    expect(getToken()).toBeNull()
    expect(storage.get('token')).toBeNull()
    expect(cookie.get('prima_token')).toBeNull()
  })

  it('is null when never set', () => {
    expect(getToken()).toBeNull()
  })
})
