import { describe, expect, it } from 'vitest'
import { canTakePart, newClientID, paywallOf } from './access'

describe('paywallOf', () => {
  it('is null when allowed and names the price or the level otherwise', () => {
    expect(paywallOf({ allowed: true, reason: 'free', unlock: { needVipLevel: 0, coins: 0 } })).toBeNull()
    const gold = paywallOf({ allowed: false, reason: 'need_coins', unlock: { needVipLevel: 0, coins: 30 } })
    expect(gold?.coins).toBe(30)
    expect(gold?.tip).toContain('30')
    expect(paywallOf({ allowed: false, reason: 'need_svip', unlock: { needVipLevel: 2, coins: 0 } })?.needVipLevel).toBe(2)
  })
})

describe('canTakePart', () => {
  it('lets registered users only', () => {
    expect(canTakePart(null, undefined)).toBe(false)
    expect(canTakePart('tok', true)).toBe(false)
    expect(canTakePart('tok', undefined)).toBe(false)
    expect(canTakePart('tok', false)).toBe(true)
  })
})

describe('newClientID', () => {
  it('is unique and at most 64 characters', () => {
    const a = newClientID()
    expect(a.length).toBeLessThanOrEqual(64)
    expect(newClientID()).not.toBe(a)
  })
})
