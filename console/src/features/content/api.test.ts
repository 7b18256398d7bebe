import { describe, expect, it } from 'vitest'
import { moduleTotals, type AdminModule } from './api'

const mod = (id: number, videoCount: number, publishedCount: number, subModules: AdminModule[] = []): AdminModule => ({
  id, pid: 0, name: 'm' + id, moduleType: 0, sort: 0, videoCount, publishedCount, subModules, createdAt: 0,
})

describe('moduleTotals', () => {
  it('adds up top modules, sub-modules and their counts', () => {
    expect(moduleTotals([mod(1, 10, 7, [mod(11, 4, 3), mod(12, 6, 4)]), mod(2, 0, 0)])).toEqual({ top: 2, sub: 2, videos: 10, published: 7 })
    expect(moduleTotals([])).toEqual({ top: 0, sub: 0, videos: 0, published: 0 })
  })
})
