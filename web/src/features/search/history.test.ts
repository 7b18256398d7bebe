import { beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryStorage } from '@/lib/testing'
import { storage } from '@/lib/storage'
import { HISTORY_KEY, HISTORY_MAX, addHistory, clearHistory, loadHistory } from './history'

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage())
})

describe('search history on the device', () => {
  it('keeps words newest first, each once', () => {
    addHistory('猫')
    addHistory('北京')
    expect(addHistory(' 猫 ')).toEqual(['猫', '北京'])
    expect(loadHistory()).toEqual(['猫', '北京'])
  })

  it(`keeps at most ${HISTORY_MAX}`, () => {
    for (let i = 0; i < 30; i++) addHistory(`w${i}`)
    const h = loadHistory()
    expect(h).toHaveLength(HISTORY_MAX)
    expect(h[0]).toBe('w29')
    expect(h[HISTORY_MAX - 1]).toBe('w10')
  })

  it('ignores empty and over-long words', () => {
    addHistory('  ')
    addHistory('a'.repeat(101))
    expect(loadHistory()).toEqual([])
  })

  it('clears everything', () => {
    addHistory('猫')
    clearHistory()
    expect(loadHistory()).toEqual([])
  })

  it('survives a tampered store', () => {
    storage.set(HISTORY_KEY, { not: 'a list' })
    expect(loadHistory()).toEqual([])
    storage.set(HISTORY_KEY, ['猫', 3, null, '猫', '\u0000', 'x'.repeat(500), '狗'])
    expect(loadHistory()).toEqual(['猫', '狗'])
  })

  it('gives up quietly when storage is unavailable', () => {
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('denied')
      },
      removeItem: () => {
        throw new Error('denied')
      },
    })
    expect(addHistory('猫')).toEqual(['猫']) // shown for this visit, not kept
    expect(loadHistory()).toEqual([])
    expect(() => clearHistory()).not.toThrow()
  })
})
