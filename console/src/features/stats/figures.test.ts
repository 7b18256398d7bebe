import { describe, expect, it } from 'vitest'
import type { StatsDay } from './api'
import { cents2, lastDays, rangeFrom, rate, toCSV, todayInShanghai, totals, yuan } from './figures'

const day = (d: string, n: number, rolled = true): StatsDay => ({
  day: d, rolled, activeUsers: n, newGuests: n, registrations: 1, payers: 1,
  revenue: { topup: 100 * n, vip: 50, total: 100 * n + 50 }, byProvider: { sandbox: 100 * n, alipay: 50 },
  withdrawals: { count: 1, cents: 7 }, plays: 3 * n, searches: n, funnel: { visits: n, registrations: 1, firstPayments: 1 },
})

// 2026-03-01 23:30 in Shanghai is 15:30 UTC.
const now = Date.UTC(2026, 2, 1, 15, 30)

describe('stats figures', () => {
  it('counts days in Asia/Shanghai', () => {
    expect(todayInShanghai(now)).toBe('2026-03-01')
    expect(todayInShanghai(Date.UTC(2026, 2, 1, 16, 0))).toBe('2026-03-02')
    expect(lastDays(7, now)).toEqual({ from: '2026-02-23', to: '2026-03-01' })
    expect(lastDays(1, now)).toEqual({ from: '2026-03-01', to: '2026-03-01' })
  })
  it('reads a range from the URL, else the last 7 days', () => {
    expect(rangeFrom(new URLSearchParams('from=2026-01-01&to=2026-01-31'), now)).toEqual({ from: '2026-01-01', to: '2026-01-31' })
    for (const q of ['', 'from=2026-01-31&to=2026-01-01', 'from=2026-02-30&to=2026-03-01', 'from=2024-01-01&to=2025-12-31', 'from=x&to=y', 'from=2026-01-01']) {
      expect(rangeFrom(new URLSearchParams(q), now)).toEqual({ from: '2026-02-23', to: '2026-03-01' })
    }
  })
  it('adds a range up', () => {
    const t = totals([day('2026-03-01', 2), day('2026-03-02', 4)])
    expect(t).toMatchObject({ activeAvg: 3, activePeak: 4, newGuests: 6, registrations: 2, payers: 2, revenue: 700, topup: 600, vip: 100, plays: 18, withdrawCents: 14 })
    expect(t.byProvider).toEqual({ sandbox: 600, alipay: 100 })
    expect(totals([]).activeAvg).toBe(0)
    expect(totals([day('2026-03-01', 1), day('2026-03-02', 0), day('2026-03-03', 0)]).activeAvg).toBe(0.3)
  })
  it('writes money and rates', () => {
    expect(yuan(0)).toBe('¥0.00')
    expect(yuan(123456789)).toBe('¥1,234,567.89')
    expect(yuan(-5)).toBe('-¥0.05')
    expect(rate(1, 3)).toBe('33.3%')
    expect(rate(1, 0)).toBe('–')
  })
  it('writes a chart as CSV', () => {
    expect(toCSV(['day', '收入'], [['2026-03-01', cents2(600)], ['2026-03-02', cents2(5)]])).toBe('\ufeffday,收入\r\n2026-03-01,6.00\r\n2026-03-02,0.05\r\n')
    expect(toCSV(['词'], [['=1+1'], ['a,"b"'], [-3]])).toBe('\ufeff词\r\n\'=1+1\r\n"a,""b"""\r\n-3\r\n')
  })
})
