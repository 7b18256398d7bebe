import { describe, expect, it } from 'vitest'
import { BIO_MAX, checkBio, checkName, cropRect, fold, toggledFans } from './rules'

describe('checkName', () => {
  it('accepts ordinary names', () => {
    for (const n of ['小明', 'Alice Wang', 'badminton fan', '时间管理大师', '字'.repeat(16), '  爱丽丝 ']) {
      expect(checkName(n), n).toBeNull()
    }
  })
  it('refuses what the server refuses', () => {
    expect(checkName('   ')).toEqual({ code: 'empty' })
    expect(checkName('a')).toMatchObject({ code: 'length' })
    expect(checkName('字'.repeat(17))).toMatchObject({ code: 'length' })
    expect(checkName('游客ABC234')).toEqual({ code: 'guest' })
    expect(checkName('官方客服')).toMatchObject({ code: 'reserved' })
    expect(checkName('客 服 小美')).toEqual({ code: 'reserved', word: '客服' })
    expect(checkName('ＡＤＭＩＮ')).toEqual({ code: 'reserved', word: 'admin' })
    expect(checkName('prima_official')).toMatchObject({ code: 'reserved' })
    expect(checkName('a\u200bb')).toEqual({ code: 'invisible' })
    expect(checkName('ab\u202e')).toEqual({ code: 'invisible' })
  })
  it('counts characters, not UTF-16 units', () => {
    expect(checkName('😀'.repeat(16))).toBeNull()
    expect(checkName('😀')).toMatchObject({ code: 'length' })
  })
  it('folds width, case and punctuation', () => {
    expect(fold('A.d-M i_N')).toBe('admin')
  })
})

describe('checkBio', () => {
  it('allows empty and the longest', () => {
    expect(checkBio('')).toBeNull()
    expect(checkBio('好'.repeat(BIO_MAX))).toBeNull()
  })
  it('refuses too long and invisible characters', () => {
    expect(checkBio('好'.repeat(BIO_MAX + 1))).toEqual({ code: 'length', max: BIO_MAX })
    expect(checkBio('line\u2028break')).toEqual({ code: 'invisible' })
  })
})

describe('cropRect', () => {
  it('centres the largest square at zoom 1', () => {
    expect(cropRect(400, 300, 1, 0, 0)).toEqual({ x: 50, y: 0, size: 300 })
  })
  it('keeps the square inside the picture', () => {
    expect(cropRect(400, 300, 1, 999, -999)).toEqual({ x: 100, y: 0, size: 300 })
    expect(cropRect(400, 300, 2, -999, 999)).toEqual({ x: 0, y: 150, size: 150 })
  })
  it('bounds the zoom', () => {
    expect(cropRect(400, 400, 0.2, 0, 0).size).toBe(400)
    expect(cropRect(400, 400, 99, 0, 0).size).toBe(100)
  })
})

describe('counts', () => {
  it('moves fans by one on a real toggle only', () => {
    expect(toggledFans(3, false, true)).toBe(4)
    expect(toggledFans(3, true, false)).toBe(2)
    expect(toggledFans(3, true, true)).toBe(3)
    expect(toggledFans(0, true, false)).toBe(0)
  })
})
