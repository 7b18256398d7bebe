import { describe, expect, it } from 'vitest'
import { qrLevel } from './qr'

describe('qrLevel', () => {
  it('keeps the four levels', () => {
    expect(qrLevel('L')).toBe('L')
    expect(qrLevel('M')).toBe('M')
    expect(qrLevel('Q')).toBe('Q')
    expect(qrLevel('H')).toBe('H')
  })

  it.each([undefined, null, '', 'h', 'high', 'X', ' H', 1, {}, ['H']])('falls back to L for %j', (x) => {
    expect(qrLevel(x)).toBe('L')
  })
})
