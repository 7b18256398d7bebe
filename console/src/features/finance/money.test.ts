import { describe, expect, it } from 'vitest'
import { addDays, daysBetween, newKey, percent, shanghaiDate, toBps, toCents, yuan } from './money'

describe('money', () => {
  it('shows cents as yuan', () => {
    expect(yuan(0)).toBe('¥0.00')
    expect(yuan(5)).toBe('¥0.05')
    expect(yuan(123456)).toBe('¥1,234.56')
    expect(yuan(-5)).toBe('-¥0.05')
  })
  it('turns typed yuan into whole cents', () => {
    expect(toCents(19.99)).toBe(1999)
    expect(toCents(0.1 + 0.2)).toBe(30)
    expect(toCents(1.005)).toBe(100) // float 1.00499…: never a fraction of a cent
    expect(toCents(null)).toBeNull()
    expect(toCents(Number.NaN)).toBeNull()
  })
  it('turns percent into basis points and back', () => {
    expect(toBps(12.5)).toBe(1250)
    expect(toBps(0.07)).toBe(7)
    expect(toBps(undefined)).toBeNull()
    expect(percent(1250)).toBe('12.5%')
    expect(percent(5000)).toBe('50%')
  })
  it('counts Shanghai days', () => {
    // 2026-12-06 17:00 UTC is already the 7th in Beijing.
    expect(shanghaiDate(Date.UTC(2026, 11, 6, 17))).toBe('2026-12-07')
    expect(shanghaiDate(Date.UTC(2026, 11, 6, 15, 59))).toBe('2026-12-06')
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(daysBetween('2026-01-01', '2026-04-02')).toBe(92)
    expect(daysBetween('2026-12-06', '2026-12-06')).toBe(1)
  })
  it('makes distinct idempotency keys', () => {
    const a = newKey('grant')
    expect(a).toMatch(/^grant-/)
    expect(a.length).toBeLessThanOrEqual(64)
    expect(newKey('grant')).not.toBe(a)
  })
})
