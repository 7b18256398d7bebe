import { describe, expect, it } from 'vitest'
import { parsePostID } from './id'

describe('parsePostID', () => {
  it('reads positive integers only', () => {
    expect(parsePostID('42')).toBe(42)
    for (const bad of [undefined, '', '0', '-1', '1.5', '01', 'abc', '1e3', '99999999999999999', ' 1']) {
      expect(parsePostID(bad), String(bad)).toBeNaN()
    }
  })
})
