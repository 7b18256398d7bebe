import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  chooseEngine,
  formatRate,
  isPlaybackRate,
  PLAYBACK_RATES,
  RESUME_KEY,
  RESUME_LIMIT,
  resumeAt,
  saveResume,
} from './player'
import { storage } from './storage'
import { MemoryStorage } from './testing'

describe('chooseEngine', () => {
  it('plays HLS natively when the browser says it can (iPhone Safari)', () => {
    expect(chooseEngine('maybe')).toBe('native')
    expect(chooseEngine('probably')).toBe('native')
  })
  it('loads hls.js when it cannot', () => {
    expect(chooseEngine('')).toBe('hlsjs')
    expect(chooseEngine('no')).toBe('hlsjs')
  })
})

describe('playback rates', () => {
  it('offers the spec list, slowest first, with 1x', () => {
    expect([...PLAYBACK_RATES]).toEqual([0.5, 1, 1.25, 1.5, 2])
    expect(isPlaybackRate(1.25)).toBe(true)
    expect(isPlaybackRate(3)).toBe(false)
    expect(isPlaybackRate('1')).toBe(false)
    expect(formatRate(0.5)).toBe('0.5x')
  })
})

describe('resume store', () => {
  beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()))
  afterEach(() => vi.unstubAllGlobals())

  it('restores a saved position per video', () => {
    saveResume(7, 42.8)
    saveResume(8, 100)
    expect(resumeAt(7)).toBe(42)
    expect(resumeAt(8)).toBe(100)
    expect(resumeAt(9)).toBe(0)
  })

  it('does not resume the first seconds or the last ones', () => {
    saveResume(1, 3)
    expect(resumeAt(1)).toBe(0)
    saveResume(2, 95)
    expect(resumeAt(2, 100)).toBe(0)
    expect(resumeAt(2, 300)).toBe(95)
  })

  it('keeps a short clip stopped before its last tenth', () => {
    saveResume(4, 7, 12)
    expect(resumeAt(4, 12)).toBe(7)
    saveResume(4, 11.5, 12)
    expect(resumeAt(4, 12)).toBe(0)
  })

  it('clears a finished video', () => {
    saveResume(3, 50)
    saveResume(3, 195, 200)
    expect(resumeAt(3)).toBe(0)
    expect(storage.get<unknown[]>(RESUME_KEY)).toEqual([])
  })

  it('keeps at most the last RESUME_LIMIT videos, dropping the oldest', () => {
    for (let id = 1; id <= RESUME_LIMIT + 5; id++) saveResume(id, 30)
    expect(storage.get<unknown[]>(RESUME_KEY)).toHaveLength(RESUME_LIMIT)
    expect(resumeAt(1)).toBe(0)
    expect(resumeAt(5)).toBe(0)
    expect(resumeAt(6)).toBe(30)
    // Watching an old one again makes it the newest.
    saveResume(6, 40)
    saveResume(RESUME_LIMIT + 6, 30)
    expect(resumeAt(6)).toBe(40)
    expect(resumeAt(7)).toBe(0)
  })

  it('ignores garbage in storage and bad input', () => {
    storage.set(RESUME_KEY, [[1, 'x'], 'y', [2, 20], [3, -1]])
    expect(resumeAt(1)).toBe(0)
    expect(resumeAt(2)).toBe(20)
    storage.set(RESUME_KEY, { not: 'a list' })
    expect(resumeAt(2)).toBe(0)
    saveResume(4, NaN)
    saveResume(1.5, 30)
    expect(storage.get(RESUME_KEY)).toEqual({ not: 'a list' })
  })
})
