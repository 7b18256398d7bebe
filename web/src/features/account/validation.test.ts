import { describe, expect, it } from 'vitest'
import { checkAccount, checkConfirm, checkPassword, hasErrors, validateLogin, validateRegister } from './validation'
import { zhCN as zhCNTyped } from '@/i18n/zh-CN'
import { en as enTyped } from '@/i18n/en/pages'

const zhCN: Record<string, string> = zhCNTyped
const en: Record<string, string> = enTyped

describe('register validation mirrors the server rules', () => {
  it.each([
    ['abcd', null],
    ['a_1234567890123456789', 'form.account.length'], // 21
    ['a1234567890123456789', null], // 20
    ['abc', 'form.account.length'],
    ['', 'form.account.required'],
    ['   ', 'form.account.required'],
    ['  user_01 ', null], // ends trimmed
    ['1abcd', 'form.account.start'],
    ['_abcd', 'form.account.start'],
    ['ab-cd', 'form.account.chars'],
    ['ab cd', 'form.account.chars'],
    ['用户名字', 'form.account.start'],
    ['abcé', 'form.account.chars'],
  ])('account %j -> %s', (input, want) => {
    expect(checkAccount(input)).toBe(want)
  })

  it.each([
    ['abc123', null],
    ['a1b2c', 'form.password.length'], // 5
    ['a'.repeat(31) + '1', null], // 32
    ['a'.repeat(32) + '1', 'form.password.length'], // 33
    ['abcdefgh', 'form.password.mix'],
    ['12345678', 'form.password.mix'],
    ['', 'form.password.required'],
    ['pass word 1', null],
  ])('password %j -> %s', (input, want) => {
    expect(checkPassword(input)).toBe(want)
  })

  it('confirm must match the password', () => {
    expect(checkConfirm('abc123', 'abc123')).toBeNull()
    expect(checkConfirm('abc123', 'abc124')).toBe('form.confirm.mismatch')
    expect(checkConfirm('abc123', '')).toBe('form.confirm.required')
  })

  it('reports each bad field of the form at once', () => {
    const errs = validateRegister({ account: '9x', password: 'short', confirm: 'other' })
    expect(errs).toEqual({ account: 'form.account.length', password: 'form.password.length', confirm: 'form.confirm.mismatch' })
    expect(hasErrors(errs)).toBe(true)
    expect(hasErrors(validateRegister({ account: 'neo_01', password: 'matrix99', confirm: 'matrix99' }))).toBe(false)
  })

  it('login only requires both fields', () => {
    expect(validateLogin({ account: '', password: '' })).toEqual({ account: 'form.account.required', password: 'form.password.required' })
    expect(hasErrors(validateLogin({ account: '1old', password: 'x' }))).toBe(false)
  })

  it('every message key is in both catalogues', () => {
    const keys = [
      'form.account.required', 'form.account.length', 'form.account.start', 'form.account.chars',
      'form.password.required', 'form.password.length', 'form.password.mix',
      'form.confirm.required', 'form.confirm.mismatch',
    ]
    for (const k of keys) {
      expect(zhCN[k], k).toBeTruthy()
      expect(en[k], k).toBeTruthy()
    }
  })
})
