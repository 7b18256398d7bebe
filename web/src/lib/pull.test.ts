import { describe, expect, it } from 'vitest'
import { PULL_MAX, PULL_THRESHOLD, pullOffset, pullStatus } from './pull'

describe('pull to refresh', () => {
  it('follows the finger at half speed at first, then with growing resistance', () => {
    expect(pullOffset(10)).toBe(4)
    expect(pullOffset(100)).toBe(40)
    expect(pullOffset(400) - pullOffset(300)).toBeLessThan(pullOffset(100) - pullOffset(0))
  })

  it('never moves past the maximum, and not at all upwards or for nonsense', () => {
    expect(pullOffset(1e9)).toBeLessThan(PULL_MAX)
    expect(pullOffset(0)).toBe(0)
    expect(pullOffset(-50)).toBe(0)
    expect(pullOffset(Number.NaN)).toBe(0)
  })

  it('asks to release once pulled past the threshold, about 170 px of finger', () => {
    expect(pullStatus(pullOffset(160))).toBe('pulling')
    expect(pullStatus(pullOffset(175))).toBe('canRelease')
    expect(pullStatus(PULL_THRESHOLD)).toBe('canRelease')
  })
})
