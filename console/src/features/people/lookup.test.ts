import { describe, expect, it } from 'vitest'
import { parseLookup } from './lookup'

describe('parseLookup', () => {
  it('reads a uid or an account', () => {
    expect(parseLookup('uid', ' 42 ')).toEqual({ by: 'uid', uid: 42 })
    expect(parseLookup('account', ' demo ')).toEqual({ by: 'account', account: 'demo' })
    expect(parseLookup('account', '123')).toEqual({ by: 'account', account: '123' })
  })
  it('refuses a uid that is not a positive whole number, and nothing at all', () => {
    for (const bad of ['0', '-1', '1.5', 'abc', '1e3', '9999999999999999']) expect(parseLookup('uid', bad)).toBe('bad-uid')
    expect(parseLookup('uid', '  ')).toBeNull()
    expect(parseLookup('account', '')).toBeNull()
  })
})
