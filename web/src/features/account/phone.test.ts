import { describe, expect, it } from 'vitest'
import { checkCode, checkMobile, codeInput, normalizeMobile, resendLeft } from './phone'

describe('mobile', () => {
  it('normalizes what people type', () => {
    expect(normalizeMobile('138 0000 0000')).toBe('13800000000')
    expect(normalizeMobile('+86 138-0000-0000')).toBe('13800000000')
    expect(normalizeMobile('008613800000000')).toBe('13800000000')
  })
  it('accepts mainland numbers only', () => {
    expect(checkMobile('13800000000')).toBeNull()
    expect(checkMobile('+8619912345678')).toBeNull()
    expect(checkMobile('')).toBe('ways.err.mobileRequired')
    for (const bad of ['12800000000', '1380000000', '138000000000', '85212345678', '1380000000a', '+85213800000000'])
      expect(checkMobile(bad)).toBe('ways.err.mobileFormat')
  })
})

describe('code', () => {
  it('is 6 digits', () => {
    expect(checkCode('123456')).toBeNull()
    expect(checkCode(' 123456 ')).toBeNull()
    expect(checkCode('')).toBe('ways.err.codeRequired')
    expect(checkCode('12345')).toBe('ways.err.codeFormat')
    expect(checkCode('12345a')).toBe('ways.err.codeFormat')
    expect(checkCode('１２３４５６')).toBe('ways.err.codeFormat')
  })
  it('keeps digits only, at most 6', () => {
    expect(codeInput('验证码 123456，5分钟内有效')).toBe('123456')
    expect(codeInput('12a3')).toBe('123')
  })
  it('counts down the resend wait', () => {
    expect(resendLeft(null, 1000)).toBe(0)
    expect(resendLeft(0, 0)).toBe(60)
    expect(resendLeft(0, 59_001)).toBe(1)
    expect(resendLeft(0, 60_000)).toBe(0)
    expect(resendLeft(0, 10_000, 30)).toBe(20)
  })
})
