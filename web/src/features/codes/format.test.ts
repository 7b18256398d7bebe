import { describe, expect, it } from 'vitest'
import { codeProblem, formatCode, normalizeCode, rewardParts } from './format'

describe('redemption code typing', () => {
  it('upper-cases and drops spaces, dashes and other marks', () => {
    expect(normalizeCode(' abcd-efgh jkmn ')).toBe('ABCDEFGHJKMN')
    expect(normalizeCode('ab\tcd—ef')).toBe('ABCDEF')
    expect(normalizeCode('ABCDEFGHJKMNPQRS')).toBe('ABCDEFGHJKMN')
  })

  it('groups by four as the user types or pastes', () => {
    expect(formatCode('')).toBe('')
    expect(formatCode('abc')).toBe('ABC')
    expect(formatCode('abcd')).toBe('ABCD')
    expect(formatCode('abcde')).toBe('ABCD-E')
    expect(formatCode('ABCD-EFGH-JKMN')).toBe('ABCD-EFGH-JKMN')
    expect(formatCode('abcdefghjkmnpq')).toBe('ABCD-EFGH-JKMN')
  })

  it('says what keeps a code from being sent', () => {
    expect(codeProblem('ABCD-EFGH-JKM')).toBe('short')
    expect(codeProblem('ABCD-EFGH-JKMN')).toBeNull()
    expect(codeProblem('ABCD-EFGH-JKM0')).toBe('chars')
    expect(codeProblem('OBCD')).toBe('chars')
    expect(codeProblem('')).toBe('short')
  })

  it('lists the parts of a reward in order, leaving out the empty ones', () => {
    expect(rewardParts({ coins: 88, vipLevel: 1, vipDays: 3, coupons: 2 })).toEqual([
      { kind: 'coins', n: 88 },
      { kind: 'vip', level: 1, days: 3 },
      { kind: 'coupons', n: 2 },
    ])
    expect(rewardParts({ coins: 0, vipLevel: 0, vipDays: 0, coupons: 1 })).toEqual([{ kind: 'coupons', n: 1 }])
  })
})

describe('record time', () => {
  it('is Shanghai time whatever the phone zone', async () => {
    const { recordTime } = await import('./format')
    // 2026-11-23 15:59:30 UTC is 23:59 in Shanghai; a minute later the next day.
    expect(recordTime(Date.UTC(2026, 10, 23, 15, 59, 30) / 1000)).toBe('2026-11-23 23:59')
    expect(recordTime(Date.UTC(2026, 10, 23, 16, 0, 30) / 1000)).toBe('2026-11-24 00:00')
  })
})
