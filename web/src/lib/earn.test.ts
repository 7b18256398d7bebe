import { describe, expect, it } from 'vitest'
import { earningState, isEarningState, maskName, maskOrderNo, percent } from './earn'
import { yuan } from './wallet'

describe('percent', () => {
  it('shows basis points as a percentage with no float error', () => {
    expect(percent(1000)).toBe('10%')
    expect(percent(300)).toBe('3%')
    expect(percent(250)).toBe('2.5%')
    expect(percent(5)).toBe('0.05%')
    expect(percent(1)).toBe('0.01%')
    expect(percent(0)).toBe('0%')
    expect(percent(10000)).toBe('100%')
    expect(percent(1234)).toBe('12.34%')
    // 0.1 + 0.2 style trouble never reaches the page: 29 bps is 0.29%, not 0.29000000000000004%.
    expect(percent(29)).toBe('0.29%')
  })
  it('never shows a negative or fractional rate', () => {
    expect(percent(-50)).toBe('0%')
    expect(percent(150.7)).toBe('1.5%')
  })
})

describe('masking', () => {
  it('keeps the first and last character of a name', () => {
    expect(maskName('alice')).toBe('a**e')
    expect(maskName('张三丰')).toBe('张**丰')
    expect(maskName('李四')).toBe('李**四')
    expect(maskName('x')).toBe('*')
    expect(maskName('')).toBe('')
    expect(maskName('  bob  ')).toBe('b**b')
  })
  it('counts characters, not UTF-16 units', () => {
    expect(maskName('😀abc😎')).toBe('😀**😎')
    expect(maskName('𠮷')).toBe('*')
  })
  it('is idempotent: the server already masked, masking again changes nothing', () => {
    for (const n of ['alice', '张三丰', 'x', '😀abc😎', 'ab']) expect(maskName(maskName(n))).toBe(maskName(n))
    expect(maskName('a**e')).toBe('a**e')
    expect(maskName('*')).toBe('*')
  })
  it('masks an order number to its first and last four', () => {
    expect(maskOrderNo('P20261128123456789')).toBe('P202****6789')
    expect(maskOrderNo('P202****6789')).toBe('P202****6789')
    expect(maskOrderNo('ABCDEFGH')).toBe('AB****GH')
    expect(maskOrderNo('ABCD')).toBe('****')
    expect(maskOrderNo('')).toBe('')
    for (const n of ['P20261128123456789', 'ABCDEFGHI', 'ABCDEFGH', 'ABCDE', 'AB']) {
      const m = maskOrderNo(n)
      expect(maskOrderNo(m)).toBe(m)
      expect(m === n && n !== '').toBe(false) // never shown whole
    }
  })
})

describe('states and money', () => {
  it('reads unknown states as pending, never as settled', () => {
    expect(earningState('settled')).toBe('settled')
    expect(earningState('reversed')).toBe('reversed')
    expect(earningState('pending')).toBe('pending')
    expect(earningState('paid')).toBe('pending')
    expect(earningState(undefined)).toBe('pending')
  })
  it('accepts only the three states as a filter', () => {
    expect(isEarningState('pending')).toBe(true)
    expect(isEarningState('all')).toBe(false)
    expect(isEarningState(null)).toBe(false)
  })
  it('shows commission with the wallet formatter: floor(order x rate) in cents', () => {
    // 29.99 yuan at 10%: 299.9 cents, floor 299, shown 2.99.
    const amount = Math.floor((2999 * 1000) / 10000)
    expect(yuan(amount)).toBe('2.99')
    expect(yuan(0)).toBe('0.00')
  })
})
