import { describe, expect, it } from 'vitest'
import { barOption, lineOption, pieOption } from './options'

describe('stats chart options', () => {
  it('draws one line per series over the days, money in yuan', () => {
    const o = lineOption(['2026-03-01', '2026-03-02'], [{ name: '收入', data: [150, 20000], area: true }], true)
    expect(o.xAxis).toMatchObject({ data: ['03-01', '03-02'] })
    const s = (o.series as { type: string; name: string; data: number[]; areaStyle?: object }[])[0]
    expect(s).toMatchObject({ type: 'line', name: '收入', data: [150, 20000] })
    expect(s.areaStyle).toBeDefined()
    const y = o.yAxis as { minInterval: number; axisLabel: { formatter: (v: number) => string } }
    expect(y.minInterval).toBe(100)
    expect(y.axisLabel.formatter(20000)).toBe('200')
    const plain = lineOption(['2026-03-01'], [{ name: '播放', data: [3] }]).yAxis as { minInterval: number; axisLabel: { formatter: (v: number) => string } }
    expect(plain.minInterval).toBe(1)
    expect(plain.axisLabel.formatter(3)).toBe('3')
  })
  it('bars and rings', () => {
    const b = barOption(['访问', '注册'], [10, 2], true)
    expect(b.yAxis).toMatchObject({ type: 'category', data: ['访问', '注册'], inverse: true })
    expect(b.series).toMatchObject([{ type: 'bar', data: [10, 2] }])
    const p = pieOption([{ name: 'sandbox', value: 600 }], true)
    expect(p.series).toMatchObject([{ type: 'pie', data: [{ name: 'sandbox', value: 600 }] }])
  })
})
