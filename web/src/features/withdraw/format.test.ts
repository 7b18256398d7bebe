import { describe, expect, it } from 'vitest'
import type { WalletSummary } from '@/lib/wallet'
import { groupCard, maxWithdrawable, previewWithdraw, recentMonths, shanghaiMonth, shortTime, signed, sumByType, validMonth } from './format'
import { exchangeCoins, exchangeTaken } from './api/exchange'
import { Intent } from './intent'

const wallet: WalletSummary = {
  coins: 0,
  income: 50_000,
  incomeFrozen: 0,
  exchangeRate: 10,
  exchangeMin: 100,
  withdrawMin: 10_000,
  withdrawMax: 500_000,
  feePercent: 20,
  withdrawDailyCount: 3,
  withdrawDailyMax: 1_000_000,
}

describe('months', () => {
  it('takes the month in Asia/Shanghai, not UTC', () => {
    expect(shanghaiMonth(new Date('2026-01-31T16:30:00Z'))).toBe('2026-02') // 00:30 on 1 Feb in Shanghai
    expect(shanghaiMonth(new Date('2026-01-31T15:59:00Z'))).toBe('2026-01')
  })
  it('lists recent months across a year boundary', () => {
    expect(recentMonths(3, new Date('2026-02-10T00:00:00Z'))).toEqual(['2026-02', '2026-01', '2025-12'])
  })
  it('accepts only real months', () => {
    expect(validMonth('2026-11')).toBe(true)
    for (const bad of ['2026-13', '2026-00', '2026-1', '26-11', '', '2026-11-01']) expect(validMonth(bad)).toBe(false)
  })
  it('formats record times', () => {
    const now = new Date(2026, 10, 23)
    expect(shortTime(new Date(2026, 0, 5, 9, 7).toISOString(), now)).toBe('01-05 09:07')
    expect(shortTime(new Date(2025, 11, 31, 23, 59).toISOString(), now)).toBe('2025-12-31 23:59')
    expect(shortTime('garbage', now)).toBe('')
    expect(signed(5, '5')).toBe('+5')
    expect(signed(-5, '-5')).toBe('-5')
  })
})

describe('withdraw preview', () => {
  it('computes fee and net as the server does (fee rounded up)', () => {
    expect(previewWithdraw('100', wallet, 1)).toEqual({ amount: 10_000, fee: 2_000, net: 8_000, problem: null })
    const odd = previewWithdraw('100.01', { ...wallet, feePercent: 3 }, 1)
    expect(odd.fee).toBe(301) // 300.03 up
    expect(odd.net).toBe(10_001 - 301)
  })
  it('names the first broken rule', () => {
    expect(previewWithdraw('', wallet, 1).problem).toBeNull()
    expect(previewWithdraw('abc', wallet, 1).problem).toEqual({ kind: 'amount' })
    expect(previewWithdraw('1.234', wallet, 1).problem).toEqual({ kind: 'amount' })
    expect(previewWithdraw('-5', wallet, 1).problem).toEqual({ kind: 'amount' })
    expect(previewWithdraw('0', wallet, 1).problem).toEqual({ kind: 'amount' })
    expect(previewWithdraw('99.99', wallet, 1).problem).toEqual({ kind: 'min', cents: 10_000 })
    expect(previewWithdraw('5000.01', { ...wallet, income: 10_000_000 }, 1).problem).toEqual({ kind: 'max', cents: 500_000 })
    expect(previewWithdraw('600', { ...wallet, income: 10_000_000, withdrawMax: 0, withdrawDailyMax: 50_000 }, 1).problem).toEqual({
      kind: 'daily',
      cents: 50_000,
    })
    expect(previewWithdraw('500.01', wallet, 1).problem).toEqual({ kind: 'balance' })
    expect(previewWithdraw('500', wallet, null).problem).toEqual({ kind: 'account' })
  })
  it('fills 全部 with the most one withdrawal may take', () => {
    expect(maxWithdrawable(wallet)).toBe(50_000)
    expect(maxWithdrawable({ ...wallet, income: 9_000_000 })).toBe(500_000)
    expect(maxWithdrawable({ ...wallet, income: -1 })).toBe(0)
  })
})

describe('exchange preview', () => {
  it('rounds coins down', () => {
    expect(exchangeCoins(100, 10)).toBe(10)
    expect(exchangeCoins(19, 10)).toBe(1)
    expect(exchangeCoins(9, 10)).toBe(0)
    expect(exchangeCoins(12_345, 7)).toBe(864)
  })
  it('takes only what the coins cost', () => {
    expect(exchangeTaken(exchangeCoins(555, 10), 10)).toBe(550)
    expect(exchangeTaken(exchangeCoins(1000, 10), 10)).toBe(1000)
    expect(exchangeTaken(exchangeCoins(12_345, 7), 7)).toBe(12_343) // 864 coins cost 12342.86 cents, up
    expect(exchangeTaken(exchangeCoins(12_345, 7), 7)).toBeLessThanOrEqual(12_345)
  })
})

describe('totals by type', () => {
  it('sums per type in first-seen order, with in and out', () => {
    const r = sumByType([
      { type: 'commission', amount: 500 },
      { type: 'withdraw', amount: -300 },
      { type: 'commission', amount: 250 },
      { type: 'withdraw_return', amount: 300 },
    ])
    expect(r.byType).toEqual([
      { type: 'commission', total: 750 },
      { type: 'withdraw', total: -300 },
      { type: 'withdraw_return', total: 300 },
    ])
    expect(r.in).toBe(1050)
    expect(r.out).toBe(-300)
  })
})

describe('intent keys', () => {
  it('keeps one key across retries, a new one after success or new parameters', () => {
    const i = new Intent('wd')
    const a = i.keyFor({ amount: 1, accountID: 2 })
    expect(a).toMatch(/^wd-[0-9a-f]{24}$/)
    expect(i.keyFor({ amount: 1, accountID: 2 })).toBe(a)
    const b = i.keyFor({ amount: 2, accountID: 2 })
    expect(b).not.toBe(a)
    i.done()
    expect(i.keyFor({ amount: 2, accountID: 2 })).not.toBe(b)
  })
})

describe('card grouping', () => {
  it('groups digits by four and drops the rest', () => {
    expect(groupCard('4111111111111111')).toBe('4111 1111 1111 1111')
    expect(groupCard('4111 11a1-1')).toBe('4111 1111')
    expect(groupCard('1'.repeat(25)).replace(/ /g, '')).toHaveLength(19)
  })
})
