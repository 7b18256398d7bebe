import { describe, expect, it } from 'vitest'
import { MAX_BAN_MINUTES, MAX_MUTE_MINUTES, isForever, minutesOf, reasonProblem } from './sanction'

describe('minutesOf', () => {
  it('takes a preset, forever (bans only) or custom minutes', () => {
    expect(minutesOf('ban', 60, '')).toBe(60)
    expect(minutesOf('ban', 'forever', '')).toBe('forever')
    expect(minutesOf('mute', 'forever', '')).toBe('badMinutes')
    expect(minutesOf('mute', 'custom', ' 90 ')).toBe(90)
  })
  it('refuses what the server refuses', () => {
    expect(minutesOf('ban', 'custom', '')).toBe('needMinutes')
    for (const bad of ['0', '-5', '1.5', 'abc', '1e3']) expect(minutesOf('ban', 'custom', bad)).toBe('badMinutes')
    expect(minutesOf('ban', 'custom', String(MAX_BAN_MINUTES))).toBe(MAX_BAN_MINUTES)
    expect(minutesOf('ban', 'custom', String(MAX_BAN_MINUTES + 1))).toBe('tooLong')
    expect(minutesOf('mute', 'custom', String(MAX_MUTE_MINUTES + 1))).toBe('tooLong')
  })
})

describe('reasonProblem', () => {
  it('wants 1-200 characters without control characters', () => {
    expect(reasonProblem('  ')).toBe('needReason')
    expect(reasonProblem('发广告')).toBeNull()
    expect(reasonProblem('长'.repeat(200))).toBeNull()
    expect(reasonProblem('长'.repeat(201))).toBe('reasonTooLong')
    expect(reasonProblem('a\u0001b')).toBe('reasonControl')
    expect(reasonProblem('a\nb')).toBe('reasonControl')
  })
})

describe('isForever', () => {
  it('reads the far end as forever', () => {
    expect(isForever(253402300799)).toBe(true)
    expect(isForever(1_800_000_000)).toBe(false)
  })
})
