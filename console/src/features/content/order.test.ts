import { describe, expect, it } from 'vitest'
import { accessFields, moved, priceRange, topOrder } from './order'
import { uploadPercent, type AdminModule } from './api'

const mod = (id: number, moduleType: number): AdminModule => ({ id, pid: 0, name: 'm' + id, moduleType, sort: 0, videoCount: 0, publishedCount: 0, createdAt: 0 })

describe('moved', () => {
  it('moves one item down, up and to the ends', () => {
    expect(moved([1, 2, 3, 4], 0, 2)).toEqual([2, 3, 1, 4])
    expect(moved([1, 2, 3, 4], 3, 0)).toEqual([4, 1, 2, 3])
    expect(moved([1, 2, 3, 4], 1, 2)).toEqual([1, 3, 2, 4])
  })
  it('leaves the list alone for the same place or a place outside it', () => {
    expect(moved([1, 2], 1, 1)).toEqual([1, 2])
    expect(moved([1, 2], -1, 0)).toEqual([1, 2])
    expect(moved([1, 2], 0, 2)).toEqual([1, 2])
  })
})

describe('topOrder', () => {
  it('sends every top-level module, grouped by type, with the dragged type in its new order', () => {
    const tops = [mod(1, 0), mod(2, 4), mod(3, 0), mod(4, 1), mod(5, 4)]
    expect(topOrder(tops, 4, [5, 2])).toEqual([1, 3, 4, 5, 2])
    expect(topOrder(tops, 0, [3, 1])).toEqual([3, 1, 4, 2, 5])
  })
})

describe('accessFields', () => {
  it('maps the access level and price to vipLevel and coins', () => {
    expect(accessFields('free', 30)).toEqual({ vipLevel: 0, coins: 0 })
    expect(accessFields('vip', 30)).toEqual({ vipLevel: 1, coins: 0 })
    expect(accessFields('svip', null)).toEqual({ vipLevel: 2, coins: 0 })
    expect(accessFields('gold', 30.7)).toEqual({ vipLevel: 0, coins: 30 })
    expect(accessFields('gold', 0)).toEqual({ vipLevel: 0, coins: 1 })
  })
})

describe('priceRange', () => {
  it('keeps the bounds given and swaps a reversed range', () => {
    expect(priceRange(10, 50)).toEqual({ coinsMin: 10, coinsMax: 50 })
    expect(priceRange(50, 10)).toEqual({ coinsMin: 10, coinsMax: 50 })
    expect(priceRange(null, 5)).toEqual({ coinsMin: undefined, coinsMax: 5 })
    expect(priceRange(undefined, undefined)).toEqual({ coinsMin: undefined, coinsMax: undefined })
  })
})

describe('uploadPercent', () => {
  it('counts whole percents and says 100 only when all is sent', () => {
    expect(uploadPercent(0, 0)).toBe(0)
    expect(uploadPercent(50, 200)).toBe(25)
    expect(uploadPercent(999, 1000)).toBe(99)
    expect(uploadPercent(1000, 1000)).toBe(100)
  })
})
