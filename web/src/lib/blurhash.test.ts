import { describe, expect, it } from 'vitest'
import { averageColor, decode83, decodeBlurhash, isBlurhash } from './blurhash'

// The reference example from blurha.sh (4x3 components).
const SAMPLE = 'LEHV6nWB2yk8pyo0adR*.7kCMdnj'

describe('blurhash', () => {
  it('decodes base 83', () => {
    expect(decode83('0')).toBe(0)
    expect(decode83('~')).toBe(82)
    expect(decode83('10')).toBe(83)
    expect(() => decode83('!')).toThrow()
  })

  it('checks the length the header announces', () => {
    expect(isBlurhash(SAMPLE)).toBe(true)
    expect(isBlurhash(SAMPLE.slice(0, -1))).toBe(false)
    expect(isBlurhash('')).toBe(false)
    expect(isBlurhash('L!HV6nWB2yk8pyo0adR*.7kCMdnj')).toBe(false)
  })

  it('paints a single-component hash as its flat colour', () => {
    // size 0 (1x1), max 0, DC = 0xff8000.
    const dc = 0xff8000
    const digits = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~'
    let enc = ''
    for (let v = dc, i = 0; i < 4; i++, v = Math.floor(v / 83)) enc = digits[v % 83] + enc
    const hash = '00' + enc
    const px = decodeBlurhash(hash, 4, 3)
    expect(px.length).toBe(4 * 3 * 4)
    for (let p = 0; p < px.length; p += 4) {
      expect([px[p], px[p + 1], px[p + 2], px[p + 3]]).toEqual([255, 128, 0, 255])
    }
    expect(averageColor(hash)).toBe('rgb(255, 128, 0)')
  })

  it('decodes the reference sample to a varied, opaque image', () => {
    const px = decodeBlurhash(SAMPLE, 8, 8)
    const reds = new Set<number>()
    for (let p = 0; p < px.length; p += 4) {
      expect(px[p + 3]).toBe(255)
      reds.add(px[p])
    }
    expect(reds.size).toBeGreaterThan(4)
    expect(() => decodeBlurhash('LEHV6n', 4, 4)).toThrow()
  })
})
