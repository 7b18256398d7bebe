import { describe, expect, it } from 'vitest'
import { centsOf, signedAmount, yuan } from './format'

describe('money format', () => {
  it('shows cents as yuan', () => {
    expect(yuan(0)).toBe('0.00')
    expect(yuan(5)).toBe('0.05')
    expect(yuan(12345)).toBe('123.45')
    expect(yuan(-250)).toBe('-2.50')
  })
  it('reads yuan as whole cents', () => {
    expect(centsOf('12')).toBe(1200)
    expect(centsOf('12.3')).toBe(1230)
    expect(centsOf(' 0.05 ')).toBe(5)
    for (const bad of ['', '1.234', '-1', '1e3', 'abc', '1,000', '.5']) expect(centsOf(bad)).toBeNull()
  })
  it('reads signed adjustments within the bound', () => {
    expect(signedAmount('-500', false, 1000)).toBe(-500)
    expect(signedAmount('+12.5', true, 100_000)).toBe(1250)
    expect(signedAmount('0', false, 1000)).toBeNull()
    expect(signedAmount('1001', false, 1000)).toBeNull()
    expect(signedAmount('1.5', false, 1000)).toBeNull()
    expect(signedAmount('--1', false, 1000)).toBeNull()
  })
})
