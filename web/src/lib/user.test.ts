import { describe, expect, it } from 'vitest'
import {
  couponTotal,
  hasFreeAccess,
  hasVipAccess,
  isNewUser,
  isSuperVip,
  isVip,
  shouldSaveUser,
  txDiscount,
  vipTier,
  type UserInfo,
} from './user'
import { displayName } from './user'

const NOW = Date.parse('2026-11-21T05:00:00Z')
const iso = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()

function user(p: Partial<UserInfo> = {}): UserInfo {
  return {
    uid: 1,
    name: 'u',
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
    createdAt: iso(-48 * 3600e3),
    ...p,
  }
}

describe('VIP tiers', () => {
  it('VIP needs isVip, level 1 and a future expiry', () => {
    expect(isVip(user({ isVip: true, vipLevel: 1, vipExpireDate: iso(1000) }), NOW)).toBe(true)
    expect(isVip(user({ isVip: false, vipLevel: 1, vipExpireDate: iso(1000) }), NOW)).toBe(false)
    expect(isVip(user({ isVip: true, vipLevel: 0, vipExpireDate: iso(1000) }), NOW)).toBe(false)
    expect(isVip(user({ isVip: true, vipLevel: 1, vipExpireDate: null }), NOW)).toBe(false)
    expect(isVip(user({ isVip: true, vipLevel: 1, vipExpireDate: 'soon' }), NOW)).toBe(false)
  })

  it('expires at the expiry instant, not a millisecond later', () => {
    const u = user({ isVip: true, vipLevel: 1, vipExpireDate: iso(0) })
    expect(isVip(u, NOW - 1)).toBe(true)
    expect(isVip(u, NOW)).toBe(false)
    expect(isVip(u, new Date(NOW + 1))).toBe(false)
  })

  it('super VIP is level 2 and is not the ordinary VIP tier', () => {
    const s = user({ isVip: true, vipLevel: 2, vipExpireDate: iso(1000) })
    expect(isSuperVip(s, NOW)).toBe(true)
    expect(isVip(s, NOW)).toBe(false)
    expect(isSuperVip(user({ isVip: true, vipLevel: 1, vipExpireDate: iso(1000) }), NOW)).toBe(false)
    expect(isSuperVip(user({ isVip: true, vipLevel: 2, vipExpireDate: iso(-1) }), NOW)).toBe(false)
    expect(isSuperVip(user({ isVip: false, vipLevel: 2, vipExpireDate: iso(1000) }), NOW)).toBe(false)
  })

  it('vipTier and hasVipAccess cover both tiers', () => {
    expect(vipTier(user(), NOW)).toBe(0)
    expect(vipTier(user({ isVip: true, vipLevel: 1, vipExpireDate: iso(1) }), NOW)).toBe(1)
    expect(vipTier(user({ isVip: true, vipLevel: 2, vipExpireDate: iso(1) }), NOW)).toBe(2)
    expect(hasVipAccess(user({ isVip: true, vipLevel: 2, vipExpireDate: iso(1) }), NOW)).toBe(true)
    expect(hasVipAccess(user({ isVip: true, vipLevel: 2, vipExpireDate: iso(-1) }), NOW)).toBe(false)
  })

  it('answers false for no user', () => {
    expect(isVip(null, NOW)).toBe(false)
    expect(isSuperVip(undefined, NOW)).toBe(false)
  })
})

describe('hasFreeAccess', () => {
  it('is open while either window is in the future', () => {
    expect(hasFreeAccess(user(), NOW)).toBe(false)
    expect(hasFreeAccess(user({ goldVideoFreeExpire: iso(1) }), NOW)).toBe(true)
    expect(hasFreeAccess(user({ videoFreeExpiration: iso(1) }), NOW)).toBe(true)
    expect(hasFreeAccess(user({ goldVideoFreeExpire: iso(-1), videoFreeExpiration: iso(1) }), NOW)).toBe(true)
    expect(hasFreeAccess(user({ goldVideoFreeExpire: iso(0), videoFreeExpiration: iso(-1) }), NOW)).toBe(false)
    expect(hasFreeAccess(null, NOW)).toBe(false)
  })
})

describe('isNewUser', () => {
  it('is new for less than 24 hours', () => {
    expect(isNewUser(user({ createdAt: iso(-(24 * 3600e3 - 1)) }), NOW)).toBe(true)
    expect(isNewUser(user({ createdAt: iso(-24 * 3600e3) }), NOW)).toBe(false)
    expect(isNewUser(user({ createdAt: iso(-25 * 3600e3) }), NOW)).toBe(false)
    expect(isNewUser(user({ createdAt: iso(0) }), NOW)).toBe(true)
    expect(isNewUser(user({ createdAt: iso(60e3) }), NOW)).toBe(true) // client clock behind
  })

  it('is not new without a usable createdAt', () => {
    expect(isNewUser(user({ createdAt: '' }), NOW)).toBe(false)
    expect(isNewUser(user({ createdAt: 'yesterday' }), NOW)).toBe(false)
    expect(isNewUser(null, NOW)).toBe(false)
  })
})

describe('shouldSaveUser', () => {
  it('saves only uid > 0', () => {
    expect(shouldSaveUser(user({ uid: 1 }))).toBe(true)
    expect(shouldSaveUser(user({ uid: 0 }))).toBe(false)
    expect(shouldSaveUser(user({ uid: -1 }))).toBe(false)
    expect(shouldSaveUser(user({ uid: NaN }))).toBe(false)
    expect(shouldSaveUser({ uid: '5' as unknown as number })).toBe(false)
    expect(shouldSaveUser({})).toBe(false)
    expect(shouldSaveUser(null)).toBe(false)
  })
})

describe('couponTotal', () => {
  it('sums counts of the unused groups only', () => {
    const u = user({
      newGoldVideoCoupon: [
        { position: 'unused', coupons: [{ id: 1, name: 'a', count: 2 }, { id: 2, name: 'b', count: 3 }] },
        { position: 'used', coupons: [{ id: 3, name: 'c', count: 100 }] },
        { position: 'expired', coupons: [{ id: 4, name: 'd', count: 50 }] },
        { position: 'unused', coupons: [{ id: 5, name: 'e', count: 1 }] },
      ],
    })
    expect(couponTotal(u)).toBe(6)
  })

  it('is 0 for nothing and ignores malformed counts', () => {
    expect(couponTotal(user())).toBe(0)
    expect(couponTotal(null)).toBe(0)
    expect(couponTotal({ newGoldVideoCoupon: undefined })).toBe(0)
    const odd = {
      newGoldVideoCoupon: [
        { position: 'unused', coupons: [{ id: 1, name: 'a', count: -4 }, { id: 2, name: 'b', count: NaN }, { id: 3, name: 'c', count: 2 }] },
        { position: 'unused', coupons: null },
      ],
    } as unknown as UserInfo
    expect(couponTotal(odd)).toBe(2)
  })
})

describe('txDiscount', () => {
  it('defaults to 20 when absent or null, keeps 0', () => {
    expect(txDiscount(user({ txDiscount: null }))).toBe(20)
    expect(txDiscount({})).toBe(20)
    expect(txDiscount(null)).toBe(20)
    expect(txDiscount(user({ txDiscount: 0 }))).toBe(0)
    expect(txDiscount(user({ txDiscount: 15 }))).toBe(15)
    expect(txDiscount({ txDiscount: '5' as unknown as number })).toBe(20)
  })
})

describe('displayName', () => {
  it('shows a registered user still named as a guest by their account', () => {
    expect(displayName({ name: '游客12345', account: 'neo_01', isGuest: false })).toBe('neo_01')
    expect(displayName({ name: '  ', account: 'neo_01', isGuest: false })).toBe('neo_01')
  })

  it('keeps a chosen name, and a guest keeps the guest name', () => {
    expect(displayName({ name: 'Neo', account: 'neo_01', isGuest: false })).toBe('Neo')
    expect(displayName({ name: '游客12345', account: null, isGuest: true })).toBe('游客12345')
    expect(displayName({ name: '游客7', account: null, isGuest: false })).toBe('游客7')
  })
})
