import { describe, expect, it } from 'vitest'
import { healthOf } from './LinesPage'
import { totalsOf } from './AppClicksPage'

describe('healthOf', () => {
  it('lists every configured line once, with the reports phones sent', () => {
    const h = healthOf(
      { api: ['https://api1.example.com', 'https://api2.example.com'], image: ['https://api1.example.com'], video: [], fallback: [] },
      [
        { line: 'https://api2.example.com/', reports: 3, lastReason: 'timeout', lastAt: '2026-12-06T10:00:00Z' },
        { line: 'https://old.example.com', reports: 1, lastReason: 'network', lastAt: '2026-12-06T09:00:00Z' },
      ],
    )
    expect(h.map((x) => [x.line, x.lists, x.reports])).toEqual([
      ['https://api1.example.com', ['api', 'image'], 0],
      ['https://api2.example.com', ['api'], 3],
      ['https://old.example.com', [], 1],
    ])
  })
  it('is empty with nothing configured or reported', () => {
    expect(healthOf(undefined, undefined)).toEqual([])
  })
})

describe('totalsOf', () => {
  it('sums each app over the days, most clicked first, keeping a title', () => {
    expect(
      totalsOf([
        { id: 1, title: '甲', day: '2026-12-06', clicks: 2 },
        { id: 2, title: '', day: '2026-12-06', clicks: 5 },
        { id: 1, title: '甲', day: '2026-12-05', clicks: 4 },
      ]),
    ).toEqual([
      { id: 1, title: '甲', clicks: 6 },
      { id: 2, title: '', clicks: 5 },
    ])
  })
})
