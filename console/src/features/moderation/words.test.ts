import { describe, expect, it } from 'vitest'
import { MAX_WORDS, fold, parseWords } from './words'

describe('parseWords', () => {
  it('trims, drops empty lines and repeats after folding width and case', () => {
    expect(parseWords(' bad \n\nＢＡＤ\r\n广告\nBad\n　\n')).toEqual({ words: ['bad', '广告'], problems: [] })
  })
  it('folds like the server', () => {
    expect(fold('ＢａＤ１')).toBe('bad1')
  })
  it('names long words and control characters by line', () => {
    const r = parseWords('ok\n' + '长'.repeat(33) + '\na\u0007b')
    expect(r.words).toEqual(['ok'])
    expect(r.problems).toEqual([
      { kind: 'tooLong', line: 2, word: '长'.repeat(8) },
      { kind: 'control', line: 3 },
    ])
  })
  it('refuses more than the limit', () => {
    const text = Array.from({ length: MAX_WORDS + 1 }, (_, i) => `w${i}`).join('\n')
    expect(parseWords(text).problems).toEqual([{ kind: 'tooMany', count: MAX_WORDS + 1 }])
  })
})
