import { describe, expect, it } from 'vitest'
import type { Batch } from './api'
import { batchState, codesCSV, codesFileName, parsePins, usesLeft, whole } from './logic'

const batch = (o: Partial<Batch>): Batch => ({
  id: 7,
  name: 'n',
  reward: { coins: 5, vipLevel: 0, vipDays: 0, coupons: 0 },
  count: 3,
  usesPerCode: 2,
  expiresAt: 0,
  disabledAt: 0,
  createdBy: 1,
  createdAt: 100,
  redeemed: 0,
  codesUsedUp: 0,
  ...o,
})

describe('codes CSV', () => {
  it('has a header and one code a line, named by the batch', () => {
    expect(codesCSV(['AAAA-BBBB-CCCC', 'DDDD-EEEE-FFFF'])).toBe('code\r\nAAAA-BBBB-CCCC\r\nDDDD-EEEE-FFFF\r\n')
    expect(codesFileName(42)).toBe('codes-batch-42.csv')
  })
})

describe('batch state', () => {
  it('disabled wins, then expired, then used up', () => {
    expect(batchState(batch({}), 1000)).toBe('active')
    expect(batchState(batch({ disabledAt: 5, expiresAt: 10, codesUsedUp: 3 }), 1000)).toBe('disabled')
    expect(batchState(batch({ expiresAt: 1000 }), 1000)).toBe('expired')
    expect(batchState(batch({ expiresAt: 1001 }), 1000)).toBe('active')
    expect(batchState(batch({ codesUsedUp: 3 }), 1000)).toBe('usedUp')
  })
  it('counts uses left, never below zero', () => {
    expect(usesLeft(batch({ redeemed: 4 }))).toBe(2)
    expect(usesLeft(batch({ redeemed: 9 }))).toBe(0)
  })
})

describe('pins', () => {
  it('skips blank lines and trims', () => {
    expect(parsePins(' 猫 \n\n北京美食\r\n')).toEqual({ words: ['猫', '北京美食'], problems: [] })
  })
  it('finds what the server refuses', () => {
    expect(parsePins('a\nA').problems).toEqual([{ kind: 'repeat', line: 2 }])
    expect(parsePins('长'.repeat(21)).problems).toEqual([{ kind: 'tooLong', line: 1 }])
    expect(parsePins('a\u0001b').problems).toEqual([{ kind: 'control', line: 1 }])
    expect(parsePins(Array.from({ length: 11 }, (_, i) => `w${i}`).join('\n')).problems).toEqual([{ kind: 'tooMany', count: 11 }])
  })
})

describe('whole', () => {
  it('takes integers within bounds only', () => {
    expect(whole(5, 0, 10)).toBe(5)
    expect(whole('7', 0, 10)).toBe(7)
    expect(whole(1.5, 0, 10)).toBeNull()
    expect(whole(-1, 0, 10)).toBeNull()
    expect(whole(11, 0, 10)).toBeNull()
    expect(whole('', 0, 10)).toBeNull()
    expect(whole(null, 0, 10)).toBeNull()
  })
})
