import { describe, expect, it } from 'vitest'
import { parseSource, sourceLink, withFilter } from './source'

const p = (s: string) => parseSource(new URLSearchParams(s))

describe('/source query', () => {
  it('reads a sub-module by id or subModuleID, before a module', () => {
    expect(p('id=7')).toMatchObject({ subModuleID: 7, sortType: 0, playTimeType: 0, newsType: 0 })
    expect(p('subModuleID=8&moduleID=3')).toMatchObject({ subModuleID: 8 })
    expect(p('subModuleID=8&moduleID=3')?.moduleID).toBeUndefined()
    expect(p('moduleID=3')).toMatchObject({ moduleID: 3 })
  })

  it('refuses ids that are not positive integers', () => {
    for (const bad of ['', 'id=0', 'id=-1', 'id=1.5', 'id=abc', 'id=1e3', 'id=1234567890123456', 'moduleID=%00']) {
      expect(p(bad), bad).toBeNull()
    }
    expect(p('id=x&moduleID=4')).toMatchObject({ moduleID: 4 })
  })

  it('keeps filters in range and falls back otherwise', () => {
    expect(p('id=1&sortType=2&playTimeType=3&newsType=1')).toMatchObject({ sortType: 2, playTimeType: 3, newsType: 1 })
    expect(p('id=1&sortType=3&playTimeType=-1&newsType=2')).toMatchObject({ sortType: 0, playTimeType: 0, newsType: 0 })
    expect(p('id=1&sortType=1.0')).toMatchObject({ sortType: 0 })
  })

  it('cleans the title', () => {
    expect(p('id=1&title=%20%E7%BA%AA%E5%BD%95%00%07%20')?.title).toBe('纪录')
    expect(p('id=1&title=%20%20')?.title).toBeUndefined()
    expect(p(`id=1&title=${'x'.repeat(60)}`)?.title).toHaveLength(40)
  })

  it('sets a filter and drops a default one', () => {
    const q = new URLSearchParams('id=1&sortType=2')
    expect(withFilter(q, 'sortType', 0).toString()).toBe('id=1')
    expect(withFilter(q, 'newsType', 1).toString()).toBe('id=1&sortType=2&newsType=1')
    expect(q.toString()).toBe('id=1&sortType=2')
  })

  it('links a module or sub-module', () => {
    expect(sourceLink({ moduleID: 3 }, 1)).toBe('/source?moduleID=3&sortType=1')
    expect(sourceLink({ subModuleID: 9 })).toBe('/source?id=9')
  })
})
