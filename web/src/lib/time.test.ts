import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadLang, setLang } from '@/i18n'
import { formatCount, formatDuration, relativeTime } from './time'

const NOW = Date.parse('2026-11-21T05:00:00Z') // 13:00 in Shanghai
const ago = (ms: number) => new Date(NOW - ms)
const S = 1000
const MIN = 60 * S
const H = 60 * MIN
const D = 24 * H

// English is a chunk loaded on demand; these tests switch to it.
beforeAll(() => loadLang('en'))
afterEach(() => setLang('zh-CN'))

describe('relativeTime', () => {
  it('says 刚刚 for the future and under a second', () => {
    expect(relativeTime(new Date(NOW + 5 * MIN), NOW)).toBe('刚刚')
    expect(relativeTime(NOW, NOW)).toBe('刚刚')
    expect(relativeTime(ago(999), NOW)).toBe('刚刚')
  })

  it('walks the units at their boundaries', () => {
    expect(relativeTime(ago(1 * S), NOW)).toBe('1秒前')
    expect(relativeTime(ago(59 * S + 999), NOW)).toBe('59秒前')
    expect(relativeTime(ago(60 * S), NOW)).toBe('1分钟前')
    expect(relativeTime(ago(59 * MIN + 59 * S), NOW)).toBe('59分钟前')
    expect(relativeTime(ago(60 * MIN), NOW)).toBe('1小时前')
    expect(relativeTime(ago(24 * H - 1), NOW)).toBe('23小时前')
    expect(relativeTime(ago(24 * H), NOW)).toBe('1天前')
    expect(relativeTime(ago(29 * D), NOW)).toBe('29天前')
  })

  it('counts months and years on the calendar', () => {
    expect(relativeTime('2026-10-21T05:00:00Z', NOW)).toBe('1个月前')
    expect(relativeTime('2026-10-21T05:00:01Z', NOW)).toBe('30天前')
    expect(relativeTime('2025-12-21T05:00:00Z', NOW)).toBe('11个月前')
    expect(relativeTime('2025-11-21T05:00:01Z', NOW)).toBe('11个月前')
  })

  it('shows years past 12 months (not the observed "within 2 months")', () => {
    expect(relativeTime('2025-11-21T05:00:00Z', NOW)).toBe('1年前')
    expect(relativeTime('2024-11-21T05:00:01Z', NOW)).toBe('1年前')
    expect(relativeTime('2024-11-21T05:00:00Z', NOW)).toBe('2年前')
    expect(relativeTime('2016-01-01T00:00:00Z', NOW)).toBe('10年前')
  })

  it('uses the Shanghai calendar, not UTC', () => {
    // Shanghai: 1 Feb 01:00 -> 1 Mar 01:00, one month. UTC: 31 Jan 17:00 -> 28 Feb 17:00, 28 days.
    expect(relativeTime('2026-01-31T17:00:00Z', '2026-02-28T17:00:00Z')).toBe('1个月前')
    // And the other way: UTC 1 Mar 00:00 is Shanghai 1 Mar 08:00; 31 Mar 20:00 UTC is 1 Apr 04:00 Shanghai.
    expect(relativeTime('2026-03-01T00:00:00Z', '2026-03-31T20:00:00Z')).toBe('30天前')
    expect(relativeTime('2026-03-01T00:00:00Z', '2026-04-01T00:00:00Z')).toBe('1个月前')
  })

  it('handles month ends without overflowing', () => {
    // Shanghai 31 Jan noon to 28 Feb noon is not a whole month yet.
    expect(relativeTime('2026-01-31T04:00:00Z', '2026-02-28T04:00:00Z')).toBe('28天前')
    expect(relativeTime('2026-01-31T04:00:00Z', '2026-03-01T04:00:00Z')).toBe('1个月前')
  })

  it('accepts RFC 3339 strings, epoch milliseconds and Dates', () => {
    expect(relativeTime('2026-11-21T04:00:00Z', NOW)).toBe('1小时前')
    expect(relativeTime(NOW - 2 * H, NOW)).toBe('2小时前')
    expect(relativeTime(ago(3 * H), new Date(NOW))).toBe('3小时前')
  })

  it('gives an empty string for an unreadable date', () => {
    expect(relativeTime('not a date', NOW)).toBe('')
    expect(relativeTime(null, NOW)).toBe('')
    expect(relativeTime('', NOW)).toBe('')
    expect(relativeTime(new Date(NaN), NOW)).toBe('')
  })

  it('speaks English when asked, or when the app language is en', () => {
    expect(relativeTime(ago(5 * MIN), NOW, 'en')).toBe('5m ago')
    expect(relativeTime(ago(2 * D), NOW, 'en')).toBe('2d ago')
    expect(relativeTime('2024-11-21T05:00:00Z', NOW, 'en')).toBe('2y ago')
    expect(relativeTime(NOW + 1, NOW, 'en')).toBe('just now')
    setLang('en')
    expect(relativeTime(ago(3 * S), NOW)).toBe('3s ago')
    expect(relativeTime(ago(3 * S), NOW, 'zh-CN')).toBe('3秒前')
  })
})

describe('formatDuration', () => {
  it.each([
    [0, '00:00'],
    [5, '00:05'],
    [59.9, '00:59'],
    [60, '01:00'],
    [754, '12:34'],
    [3599, '59:59'],
    [3600, '1:00:00'],
    [3661, '1:01:01'],
    [36000 + 59, '10:00:59'],
  ])('%s s -> %s', (s, want) => {
    expect(formatDuration(s)).toBe(want)
  })

  it('shows 00:00 for nonsense', () => {
    expect(formatDuration(-1)).toBe('00:00')
    expect(formatDuration(NaN)).toBe('00:00')
    expect(formatDuration(Infinity)).toBe('00:00')
    expect(formatDuration(null)).toBe('00:00')
  })
})

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [9999, '9999'],
    [10000, '1万'],
    [12000, '1.2万'],
    [12999, '1.2万'],
    [99999, '9.9万'],
    [123456, '12.3万'],
    [99999999, '9999.9万'],
    [100000000, '1亿'],
    [250000000, '2.5亿'],
  ])('zh %s -> %s', (n, want) => {
    expect(formatCount(n, 'zh-CN')).toBe(want)
  })

  it.each([
    [999, '999'],
    [1000, '1k'],
    [12345, '12.3k'],
    [999999, '999.9k'],
    [1000000, '1M'],
    [1250000, '1.2M'],
    [3000000000, '3B'],
  ])('en %s -> %s', (n, want) => {
    expect(formatCount(n, 'en')).toBe(want)
  })

  it('follows the app language by default', () => {
    expect(formatCount(12000)).toBe('1.2万')
    setLang('en')
    expect(formatCount(12000)).toBe('12k')
  })

  it('shows 0 for nonsense and drops fractions', () => {
    expect(formatCount(-5, 'zh-CN')).toBe('0')
    expect(formatCount(NaN, 'zh-CN')).toBe('0')
    expect(formatCount(undefined, 'zh-CN')).toBe('0')
    expect(formatCount(12.7, 'zh-CN')).toBe('12')
  })
})

// Counts read one way across the app: a page formatting its own (1.4w
// where every other page writes 1.4万) is what formatCount exists to stop.
describe('no page formats counts on its own', () => {
  it('has no hand-made 万/w/k count formatter outside lib/time', async () => {
    const { readdirSync, readFileSync, statSync } = await import('node:fs')
    const { join } = await import('node:path')
    const offenders: string[] = []
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name)
        if (statSync(p).isDirectory()) walk(p)
        else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) && !p.endsWith(join('lib', 'time.ts'))) {
          const src = readFileSync(p, 'utf8')
          if (/\/\s*(10_?000|1e4)\b[^\n]*\}(w|W|万|k)`|`\$\{[^`]*(10_?000|1e4)[^`]*\}(w|万)`/.test(src)) offenders.push(p)
        }
      }
    }
    walk('src')
    expect(offenders).toEqual([])
  })
})
