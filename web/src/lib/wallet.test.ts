import { describe, expect, it } from 'vitest'
import { newIdempotencyKey, parseYuan, withdrawFee, yuan } from './wallet'

describe('wallet helpers', () => {
  it('formats cents as yuan', () => {
    expect(yuan(0)).toBe('0.00')
    expect(yuan(5)).toBe('0.05')
    expect(yuan(12345)).toBe('123.45')
    expect(yuan(-250)).toBe('-2.50')
  })
  it('parses typed yuan into cents', () => {
    expect(parseYuan('12')).toBe(1200)
    expect(parseYuan('12.5')).toBe(1250)
    expect(parseYuan(' 0.01 ')).toBe(1)
    for (const bad of ['', '0', '0.00', '-1', '1.234', 'abc', '1e3', '1,000']) expect(parseYuan(bad)).toBeNull()
  })
  it('makes keys the server accepts, a new one each time', () => {
    const a = newIdempotencyKey('buy')
    expect(a).toMatch(/^[A-Za-z0-9_.:-]{8,64}$/)
    expect(newIdempotencyKey('buy')).not.toBe(a)
  })
  it('rounds the withdrawal fee up', () => {
    expect(withdrawFee(10000, 20)).toBe(2000)
    expect(withdrawFee(10001, 20)).toBe(2001)
    expect(withdrawFee(10000, 0)).toBe(0)
  })
})
