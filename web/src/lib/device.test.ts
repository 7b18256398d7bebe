import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { CookieJar, MemoryStorage } from './testing'

let ls: MemoryStorage
let jar: CookieJar

beforeEach(() => {
  ls = new MemoryStorage()
  jar = new CookieJar()
  vi.stubGlobal('localStorage', ls)
  vi.stubGlobal('document', jar)
  vi.resetModules() // deviceId caches per module instance
})
afterEach(() => {
  vi.unstubAllGlobals()
})

const load = () => import('./device')

describe('makeDeviceId', () => {
  it('is 16 alphanumerics followed by the timestamp', async () => {
    const { makeDeviceId } = await load()
    const id = makeDeviceId(() => 0, () => 1763701200123)
    expect(id).toBe('AAAAAAAAAAAAAAAA1763701200123')
  })

  it('stays inside the alphabet at the edges of the random source', async () => {
    const { makeDeviceId, isDeviceId } = await load()
    const hi = makeDeviceId(() => 0.9999999999, () => 1763701200123)
    expect(hi.slice(0, 16)).toBe('9'.repeat(16))
    const one = makeDeviceId(() => 1, () => 1763701200123) // a broken source returning 1
    expect(isDeviceId(one)).toBe(true)
    const neg = makeDeviceId(() => -0.5, () => 1763701200123)
    expect(isDeviceId(neg)).toBe(true)
  })

  it('uses every part of the alphabet', async () => {
    const { makeDeviceId } = await load()
    let i = 0
    const seq = () => ((i++ % 62) + 0.5) / 62
    const chars = new Set<string>()
    for (let k = 0; k < 4; k++) for (const c of makeDeviceId(seq, () => 1e12).slice(0, 16)) chars.add(c)
    expect(chars.size).toBe(62)
  })

  it('produces ids the validator accepts, with the default sources', async () => {
    const { makeDeviceId, isDeviceId } = await load()
    const a = makeDeviceId()
    const b = makeDeviceId()
    expect(isDeviceId(a)).toBe(true)
    expect(a).not.toBe(b)
  })
})

describe('isDeviceId', () => {
  it('matches the server rule', async () => {
    const { isDeviceId } = await load()
    const p = 'aB3dE6gH9jK2mN5p'
    expect(isDeviceId(p + '1234567890')).toBe(true) // 10 digits
    expect(isDeviceId(p + '1234567890123')).toBe(true) // 13 digits
    expect(isDeviceId(p + '123456789')).toBe(false) // 9 digits
    expect(isDeviceId(p + '12345678901234')).toBe(false) // 14 digits
    expect(isDeviceId(p.slice(1) + '1234567890')).toBe(false) // 25 chars: one short of the minimum
    expect(isDeviceId('aB3dE6gH9jK2mN5_1234567890')).toBe(false)
    expect(isDeviceId(' ' + p + '1234567890')).toBe(false)
    expect(isDeviceId('')).toBe(false)
    expect(isDeviceId(null)).toBe(false)
    expect(isDeviceId(12345)).toBe(false)
  })
})

describe('deviceId', () => {
  it('generates once, persists to storage and a one-year cookie, then returns the same', async () => {
    const { deviceId, isDeviceId } = await load()
    const a = deviceId()
    expect(isDeviceId(a)).toBe(true)
    expect(JSON.parse(ls.map.get('prima_device_id')!)).toBe(a)
    expect(jar.jar.get('prima_device_id')).toBe(a)
    expect(jar.writes[0]).toContain('Max-Age=31536000')
    expect(deviceId()).toBe(a)
  })

  it('survives a reload (new module instance) through storage', async () => {
    const a = (await load()).deviceId()
    vi.resetModules()
    expect((await load()).deviceId()).toBe(a)
  })

  it('is recovered from the cookie when storage was cleared, and restored to storage', async () => {
    const a = (await load()).deviceId()
    ls.clear()
    vi.resetModules()
    expect((await load()).deviceId()).toBe(a)
    expect(JSON.parse(ls.map.get('prima_device_id')!)).toBe(a)
  })

  it('replaces a malformed stored id', async () => {
    ls.setItem('prima_device_id', JSON.stringify('garbage'))
    const { deviceId, isDeviceId } = await load()
    const id = deviceId()
    expect(isDeviceId(id)).toBe(true)
    expect(JSON.parse(ls.map.get('prima_device_id')!)).toBe(id)
  })

  it('stays stable for the page even when storage fails', async () => {
    ls.broken = true
    vi.stubGlobal('document', undefined)
    const { deviceId } = await load()
    expect(deviceId()).toBe(deviceId())
  })
})
