import { describe, expect, it } from 'vitest'
import { parseID } from './id'

describe('parseID', () => {
  it('accepts positive safe integers', () => {
    expect(parseID('1')).toBe(1)
    expect(parseID('9007199254740991')).toBe(9007199254740991)
  })
  it('refuses anything else', () => {
    for (const s of [undefined, '', '0', '-1', '1.5', 'abc', '1e3', ' 1', '9007199254740992', '12345678901234567']) {
      expect(parseID(s)).toBeNaN()
    }
  })
})
