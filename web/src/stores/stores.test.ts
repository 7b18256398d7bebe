import { beforeEach, describe, expect, it, vi } from 'vitest'
import { CookieJar, MemoryStorage } from '@/lib/testing'
import type { UserInfo } from '@/lib/user'

const mem = new MemoryStorage()
const jar = new CookieJar()
vi.stubGlobal('localStorage', mem)
vi.stubGlobal('document', jar)

const { useUserStore } = await import('./user')
const { useAppStore, isDark } = await import('./app')

const user = (uid: number, extra: Partial<UserInfo> = {}): UserInfo => ({
  uid,
  name: 'n' + uid,
  portrait: '',
  account: null,
  isGuest: true,
  points: 0,
  isVip: false,
  vipLevel: 0,
  vipExpireDate: null,
  txDiscount: null,
  newGoldVideoCoupon: [],
  goldVideoFreeExpire: null,
  videoFreeExpiration: null,
  createdAt: '2026-11-21T00:00:00Z',
  ...extra,
})

describe('user store', () => {
  beforeEach(() => useUserStore.getState().logout())

  it('login keeps the token where the API client reads it and persists only the user', () => {
    useUserStore.getState().login('tok-1', user(7))
    expect(useUserStore.getState().token).toBe('tok-1')
    expect(JSON.parse(mem.getItem('prima_token')!)).toBe('tok-1')
    const saved = JSON.parse(mem.getItem('prima_user')!)
    expect(saved.state).toEqual({ user: user(7) })
  })

  it('saves user info only when uid > 0 (spec §5)', () => {
    useUserStore.getState().login('tok-2', user(0))
    expect(useUserStore.getState().user).toBeNull()
    useUserStore.getState().setUser(user(9))
    useUserStore.getState().setUser(user(-1))
    useUserStore.getState().setUser(null)
    expect(useUserStore.getState().user?.uid).toBe(9)
  })

  it('logout forgets token and user', () => {
    useUserStore.getState().login('tok-3', user(3))
    useUserStore.getState().logout()
    expect(useUserStore.getState()).toMatchObject({ token: null, user: null })
    expect(mem.getItem('prima_token')).toBeNull()
    expect(JSON.parse(mem.getItem('prima_user')!).state.user).toBeNull()
  })

  it('rehydrates the user only while a token exists', async () => {
    useUserStore.getState().login('tok-4', user(4))
    await useUserStore.persist.rehydrate()
    expect(useUserStore.getState().user?.uid).toBe(4)
    // Another tab signed out: storage and cookie both lost the token.
    mem.removeItem('prima_token')
    jar.jar.delete('prima_token')
    await useUserStore.persist.rehydrate()
    expect(useUserStore.getState()).toMatchObject({ token: null, user: null })
  })
})

describe('app store', () => {
  it('persists dark, language and tabs under prima_app', () => {
    useAppStore.getState().setDark(true)
    useAppStore.getState().setLang('en')
    useAppStore.getState().setTab('home', 3)
    expect(JSON.parse(mem.getItem('prima_app')!).state).toEqual({ tabs: { home: 3 }, dark: true, lang: 'en' })
  })

  it('the dark flag wins over the system setting once chosen', () => {
    expect(isDark({ dark: null }, true)).toBe(true)
    expect(isDark({ dark: null }, false)).toBe(false)
    expect(isDark({ dark: false }, true)).toBe(false)
  })

  it('exposes a valid device id as uid', () => {
    expect(useAppStore.getState().uid).toMatch(/^[A-Za-z0-9]{16}\d{10,13}$/)
  })

  it('ignores a garbled persisted state', async () => {
    useAppStore.setState({ dark: null, lang: 'zh-CN', tabs: {} })
    mem.setItem('prima_app', JSON.stringify({ state: { dark: 'yes', lang: 'fr', tabs: 5 }, version: 0 }))
    await useAppStore.persist.rehydrate()
    expect(useAppStore.getState()).toMatchObject({ dark: null, lang: 'zh-CN', tabs: {} })
  })
})

describe('app name', () => {
  it("is the remote configuration's APPNAME, in every language", async () => {
    const { appNameOf } = await import('./config')
    expect(appNameOf({ APPNAME: [{ title: '  星光  ', url: '', weight: 1 }] })).toBe('星光')
    expect(appNameOf({ APPNAME: [{ title: '', url: '', weight: 1 }, { title: 'Second', url: '', weight: 0 }] })).toBe('Second')
  })

  it('is null when the configuration names none, so the built-in name shows', async () => {
    const { appNameOf } = await import('./config')
    expect(appNameOf(null)).toBeNull()
    expect(appNameOf({})).toBeNull()
    expect(appNameOf({ APPNAME: 'x' as never })).toBeNull()
    expect(appNameOf({ APPNAME: [{ title: 7 } as never] })).toBeNull()
  })
})

describe('NAVOPEN', () => {
  it('keeps the dark tab unless the configuration turns it off', async () => {
    const { navOpen } = await import('./config')
    const e = (title: string) => ({ NAVOPEN: [{ title, url: '', weight: 1 }] })
    expect(navOpen(null)).toBe(true)
    expect(navOpen({})).toBe(true)
    expect(navOpen(e('开启'))).toBe(true)
    expect(navOpen(e('whatever'))).toBe(true)
    expect(navOpen(e('关闭'))).toBe(false)
    expect(navOpen(e(' OFF '))).toBe(false)
    expect(navOpen(e('0'))).toBe(false)
    expect(navOpen({ NAVOPEN: 'x' as never })).toBe(true)
  })
})
