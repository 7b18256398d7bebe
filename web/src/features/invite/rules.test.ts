import { describe, expect, it } from 'vitest'
import { barHeights, fieldProblem, monthDay, promoterProblems, readDataTab, readPeriod, weekday, windowDays, withPeriod, withTab } from './rules'

describe('the promoter application mirrors the server', () => {
  it('checks lengths in characters after trimming', () => {
    expect(fieldProblem('channel', '')).toBe('range')
    expect(fieldProblem('channel', '   ')).toBe('range')
    expect(fieldProblem('channel', '抖')).toBeNull()
    expect(fieldProblem('channel', '抖'.repeat(30))).toBeNull()
    expect(fieldProblem('channel', '抖'.repeat(31))).toBe('range')
    expect(fieldProblem('contact', 'ab')).toBe('range')
    expect(fieldProblem('contact', ' abc ')).toBeNull()
    expect(fieldProblem('contact', 'a'.repeat(51))).toBe('range')
    expect(fieldProblem('intro', '')).toBeNull()
    expect(fieldProblem('intro', '😀'.repeat(500))).toBeNull() // 500 characters, 1000 UTF-16 units
    expect(fieldProblem('intro', 'x'.repeat(501))).toBe('range')
  })
  it('allows line breaks only in the intro, control characters nowhere', () => {
    expect(fieldProblem('channel', '抖音\n快手')).toBe('lines')
    expect(fieldProblem('contact', 'tg\t@me')).toBe('lines')
    expect(fieldProblem('intro', '第一行\n第二行\r\n\t第三行')).toBeNull()
    for (const bad of ['a\u0000b', 'a\u001bb', 'a\u007fb', 'a\u0085b', 'a\uffffb']) {
      expect(fieldProblem('intro', bad), JSON.stringify(bad)).toBe('control')
      expect(fieldProblem('contact', bad + 'cd'), JSON.stringify(bad)).toBe('control')
    }
  })
  it('lists only the fields with a problem', () => {
    expect(promoterProblems({ channel: '抖音', contact: 'tg@me', intro: '' })).toEqual({})
    expect(promoterProblems({ channel: '', contact: 'x', intro: 'ok' })).toEqual({ channel: 'range', contact: 'range' })
  })
})

describe('the promotion data tabs', () => {
  const q = (s: string) => new URLSearchParams(s)
  it('reads ?type= and ?period=, falling back to data and day', () => {
    expect(readDataTab(q(''))).toBe('data')
    expect(readDataTab(q('type=list'))).toBe('list')
    expect(readDataTab(q('type=bogus'), 'list')).toBe('list')
    expect(readPeriod(q(''))).toBe('day')
    expect(readPeriod(q('period=week'))).toBe('week')
    expect(readPeriod(q('period=month'))).toBe('month')
    expect(readPeriod(q('period=year'))).toBe('day')
  })
  it('writes a tap into the query, keeping the rest, the default period left out', () => {
    expect(withPeriod(q('type=list&x=1'), 'week').toString()).toBe('type=data&x=1&period=week')
    expect(withPeriod(q('type=data&period=month'), 'day').toString()).toBe('type=data')
    expect(withTab(q('period=month'), 'list').toString()).toBe('period=month&type=list')
    // A round trip: what was written is what is read.
    for (const p of ['day', 'week', 'month'] as const) expect(readPeriod(withPeriod(q(''), p))).toBe(p)
  })
})

describe('the per-day series', () => {
  it('scales bars to the largest value, keeping small ones visible', () => {
    expect(barHeights([0, 5, 10])).toEqual([0, 50, 100])
    expect(barHeights([1, 1000])).toEqual([4, 100])
    expect(barHeights([0, 0])).toEqual([0, 0])
    expect(barHeights([])).toEqual([])
  })
  it('names days', () => {
    expect(monthDay('2026-11-24')).toBe('11-24')
    expect(monthDay('junk')).toBe('junk')
    expect(weekday('2026-11-23')).toBe(1) // a Monday
    expect(weekday('2026-11-29')).toBe(0)
    expect(weekday('nope')).toBe(-1)
    expect(windowDays([{ date: '2026-11-23' }, { date: '2026-11-24' }])).toEqual(['2026-11-23', '2026-11-24'])
    expect(windowDays([])).toBeNull()
  })
})
