import { describe, expect, it } from 'vitest'
import {
  clampIndex,
  dragOffset,
  mountedAround,
  mountedRange,
  playbackPath,
  preloadAttr,
  releaseTarget,
  shouldLoadMore,
  slideRole,
  sourceOfQuery,
  sourceRole,
} from './feed'

const H = 800

describe('releaseTarget', () => {
  it('stays for a short slow drag', () => {
    expect(releaseTarget({ index: 2, count: 10, dy: -100, vy: -0.1, height: H })).toBe(2)
    expect(releaseTarget({ index: 2, count: 10, dy: 5, vy: 2, height: H })).toBe(2) // a tap with jitter
  })
  it('moves one slide past a fifth of the height', () => {
    expect(releaseTarget({ index: 2, count: 10, dy: -200, vy: 0, height: H })).toBe(3)
    expect(releaseTarget({ index: 2, count: 10, dy: 200, vy: 0, height: H })).toBe(1)
    expect(releaseTarget({ index: 2, count: 10, dy: -790, vy: -5, height: H })).toBe(3) // never two
  })
  it('moves on a flick in the drag direction', () => {
    expect(releaseTarget({ index: 2, count: 10, dy: -40, vy: -0.6, height: H })).toBe(3)
    expect(releaseTarget({ index: 2, count: 10, dy: 40, vy: 0.6, height: H })).toBe(1)
  })
  it('ignores a flick against the drag', () => {
    expect(releaseTarget({ index: 2, count: 10, dy: -40, vy: 0.6, height: H })).toBe(2)
  })
  it('stops at the ends', () => {
    expect(releaseTarget({ index: 0, count: 10, dy: 300, vy: 1, height: H })).toBe(0)
    expect(releaseTarget({ index: 9, count: 10, dy: -300, vy: -1, height: H })).toBe(9)
    expect(releaseTarget({ index: 0, count: 0, dy: -300, vy: -1, height: H })).toBe(0)
  })
})

describe('dragOffset', () => {
  it('follows the finger inside, resists past the ends', () => {
    expect(dragOffset(3, 10, -90)).toBe(-90)
    expect(dragOffset(0, 10, 90)).toBe(30)
    expect(dragOffset(9, 10, -90)).toBe(-30)
    expect(dragOffset(0, 10, -90)).toBe(-90)
  })
})

describe('mountedRange', () => {
  it('keeps five around the current slide', () => {
    expect(mountedRange(5, 20)).toEqual([3, 7])
    expect(mountedRange(0, 20)).toEqual([0, 4])
    expect(mountedRange(1, 20)).toEqual([0, 4])
    expect(mountedRange(19, 20)).toEqual([15, 19])
  })
  it('mounts all of a short list and nothing of an empty one', () => {
    expect(mountedRange(1, 3)).toEqual([0, 2])
    expect(mountedRange(0, 0)).toEqual([0, -1])
  })
  it('never mounts fewer than three when there are three', () => {
    for (let n = 3; n < 12; n++)
      for (let i = 0; i < n; i++) {
        const [a, b] = mountedRange(i, n)
        expect(b - a + 1).toBeGreaterThanOrEqual(3)
        expect(b - a + 1).toBeLessThanOrEqual(5)
        expect(a <= i && i <= b).toBe(true)
      }
  })
})

describe('sourceRole', () => {
  it('gives a source to the current clip and its neighbours only', () => {
    expect([3, 4, 5, 6, 7].map((i) => sourceRole(i, 5))).toEqual(['none', 'keep', 'play', 'preload', 'none'])
    expect(preloadAttr('preload')).toBe('auto')
    expect(preloadAttr('keep')).toBe('metadata')
    expect(preloadAttr('none')).toBe('none')
  })
  it('exactly one plays in any window', () => {
    for (let i = 0; i < 10; i++) {
      const [a, b] = mountedRange(i, 10)
      const roles = Array.from({ length: b - a + 1 }, (_, k) => sourceRole(a + k, i))
      expect(roles.filter((r) => r === 'play')).toHaveLength(1)
    }
  })
})

describe('shouldLoadMore', () => {
  it('asks near the end only when more exist and nothing is loading', () => {
    expect(shouldLoadMore(16, 20, true, false)).toBe(false)
    expect(shouldLoadMore(17, 20, true, false)).toBe(true)
    expect(shouldLoadMore(17, 20, false, false)).toBe(false)
    expect(shouldLoadMore(17, 20, true, true)).toBe(false)
    expect(shouldLoadMore(0, 0, true, false)).toBe(false)
  })
})

describe('playbackPath', () => {
  it('prefers the browser\'s own HLS, then hls.js over MSE', () => {
    expect(playbackPath({ mse: true, nativeHls: true })).toBe('native')
    expect(playbackPath({ mse: false, nativeHls: true })).toBe('native')
    expect(playbackPath({ mse: true, nativeHls: false })).toBe('hls.js')
    expect(playbackPath({ mse: false, nativeHls: false })).toBe('none')
  })
})

describe('sourceOfQuery', () => {
  const q = (s: string) => sourceOfQuery(new URLSearchParams(s))
  it('reads a sub-module, else a module', () => {
    expect(q('id=12')).toEqual({ subModuleID: 12 })
    expect(q('subModuleID=7&title=%E7%83%AD%E9%97%A8')).toEqual({ subModuleID: 7, title: '热门' })
    expect(q('moduleID=3')).toEqual({ moduleID: 3 })
    expect(q('id=5&moduleID=3')).toEqual({ subModuleID: 5 })
  })
  it('ignores bad numbers', () => {
    expect(q('')).toBeNull()
    expect(q('id=0')).toBeNull()
    expect(q('id=-1')).toBeNull()
    expect(q('id=1.5')).toBeNull()
    expect(q('id=abc&moduleID=x')).toBeNull()
    expect(q('id=99999999999999999999')).toBeNull()
    expect(clampIndex(5, 3)).toBe(2)
  })
})

describe('the window settling after a swipe', () => {
  it('switches the playing clip at once and the rest after', () => {
    // Swiped from 5 to 6; the window still sits at 5.
    expect([3, 4, 5, 6, 7].map((i) => slideRole(i, 6, 5))).toEqual(['none', 'keep', 'keep', 'play', 'none'])
    // Settled: the usual roles around 6.
    expect([4, 5, 6, 7, 8].map((i) => slideRole(i, 6, 6))).toEqual(['none', 'keep', 'play', 'preload', 'none'])
    for (let i = 0; i < 10; i++) expect(slideRole(i, 4, 4)).toBe(sourceRole(i, 4))
  })
  it('mounts the current slide even when it jumped', () => {
    expect(mountedAround(6, 5, 20)).toEqual([3, 7])
    expect(mountedAround(12, 5, 20)).toEqual([3, 12])
    expect(mountedAround(0, 0, 0)).toEqual([0, -1])
  })
})
