import { describe, expect, it } from 'vitest'
import { axisOf, pushSample, velocityOf } from './gesture'

describe('axisOf', () => {
  it('waits inside the slop', () => {
    expect(axisOf(3, 4)).toBeNull()
    expect(axisOf(0, 0)).toBeNull()
  })
  it('gives clear horizontal moves to x and vertical ones to y', () => {
    expect(axisOf(40, 2)).toBe('x')
    expect(axisOf(-40, 5)).toBe('x')
    expect(axisOf(2, 40)).toBe('y')
    expect(axisOf(0, -12)).toBe('y')
  })
  it('gives diagonals to y (scrolling wins)', () => {
    expect(axisOf(30, 30)).toBe('y')
    expect(axisOf(30, 20)).toBe('y') // 33.7° off horizontal
    expect(axisOf(30, 15)).toBe('x') // 26.6°
  })
})

describe('velocityOf', () => {
  it('is zero without two samples or time', () => {
    expect(velocityOf([])).toEqual({ vx: 0, vy: 0 })
    expect(velocityOf([{ t: 0, x: 0, y: 0 }])).toEqual({ vx: 0, vy: 0 })
    expect(velocityOf([{ t: 5, x: 0, y: 0 }, { t: 5, x: 9, y: 9 }])).toEqual({ vx: 0, vy: 0 })
  })
  it('measures over the last window only', () => {
    const s = [
      { t: 0, x: 0, y: 0 },
      { t: 10, x: 0, y: -500 }, // an early fling, then a pause
      { t: 300, x: 0, y: -500 },
      { t: 350, x: 0, y: -520 },
    ]
    const v = velocityOf(s)
    expect(v.vy).toBeCloseTo(-20 / 50)
    expect(v.vx).toBe(0)
  })
  it('pushSample keeps recent samples only', () => {
    let s = [{ t: 0, x: 0, y: 0 }]
    s = pushSample(s, { t: 150, x: 0, y: 1 })
    s = pushSample(s, { t: 400, x: 0, y: 2 })
    expect(s.map((p) => p.t)).toEqual([400])
  })
})
