import { describe, expect, it } from 'vitest'
import { NO_FILTER, apiFilter, hasFilters, isFiltered, parseFilter, withFilter, withTab } from './filters'
import { searchKeys } from './keys'
import { resultParams } from './api/search'

const url = (s: string) => new URLSearchParams(s)

describe('the filters in the URL', () => {
  it('are offered for videos, shorts, galleries and posts only', () => {
    expect(['video', 'short', 'gallery', 'post'].every((k) => hasFilters(k as never))).toBe(true)
    expect(hasFilters('topic')).toBe(false)
    expect(hasFilters('user')).toBe(false)
    expect(hasFilters('all')).toBe(false)
  })

  it('read the API names, anything else as no filter', () => {
    expect(parseFilter('video', url('vipLevel=1&moduleID=12'))).toEqual({ vipLevel: 1, moduleID: 12 })
    expect(parseFilter('gallery', url('vipLevel=0'))).toEqual({ vipLevel: 0, moduleID: 0 })
    expect(parseFilter('video', url(''))).toEqual(NO_FILTER)
    for (const v of ['-1', '3', '1.0', ' 1', 'x', '']) expect(parseFilter('video', url(`vipLevel=${encodeURIComponent(v)}`)).vipLevel).toBe(-1)
    for (const m of ['0', '-5', '012', '1e3', 'x', '99999999999999999']) expect(parseFilter('video', url(`moduleID=${encodeURIComponent(m)}`)).moduleID).toBe(0)
    expect(parseFilter('video', url('moduleID=9007199254740991')).moduleID).toBe(9007199254740991)
    // A kind without filters has none, whatever the URL says.
    expect(parseFilter('user', url('vipLevel=1&moduleID=3'))).toEqual(NO_FILTER)
  })

  it('write only what is set, keeping the rest of the URL', () => {
    const p = withFilter(url('keyword=猫&kind=video&sort=new'), { vipLevel: 2, moduleID: 7 })
    expect(p.toString()).toBe(url('keyword=猫&kind=video&sort=new&vipLevel=2&moduleID=7').toString())
    expect(withFilter(p, { vipLevel: 0, moduleID: 0 }).toString()).toBe(url('keyword=猫&kind=video&sort=new&vipLevel=0').toString())
    expect(withFilter(p, NO_FILTER).toString()).toBe(url('keyword=猫&kind=video&sort=new').toString())
    expect(isFiltered(NO_FILTER)).toBe(false)
    expect(isFiltered({ vipLevel: 0, moduleID: 0 })).toBe(true)
    expect(isFiltered({ vipLevel: -1, moduleID: 3 })).toBe(true)
  })

  it('reset with the tab: the module and sort always, the access level where the new tab has none', () => {
    const p = url('keyword=猫&kind=video&sort=plays&vipLevel=1&moduleID=7')
    expect(withTab(p, 'gallery').toString()).toBe(url('keyword=猫&kind=gallery&vipLevel=1').toString())
    expect(withTab(p, 'user').toString()).toBe(url('keyword=猫&kind=user').toString())
    expect(withTab(p, 'all').toString()).toBe(url('keyword=猫').toString())
  })
})

describe('the results query', () => {
  it('sends the filters that are set, with the API names', () => {
    expect(apiFilter(NO_FILTER)).toEqual({})
    expect(apiFilter({ vipLevel: 0, moduleID: 0 })).toEqual({ vipLevel: 0 })
    expect(resultParams('猫', 'video', 'new', { vipLevel: 1, moduleID: 7 }, 2)).toEqual({
      q: '猫', kind: 'video', sort: 'new', vipLevel: 1, moduleID: 7, pageNumber: 2, pageSize: 20,
    })
    expect(resultParams('猫', 'video', 'new', NO_FILTER, 1)).not.toHaveProperty('vipLevel')
  })

  it('keys every filter apart, so cached pages are never mixed', () => {
    const key = (vipLevel: -1 | 0 | 1 | 2, moduleID: number) => JSON.stringify(searchKeys.results('猫', 'video', 'relevance', { vipLevel, moduleID }, null))
    const keys = [key(-1, 0), key(0, 0), key(1, 0), key(2, 0), key(-1, 7), key(1, 7), key(1, 8)]
    expect(new Set(keys).size).toBe(keys.length)
    expect(key(1, 7)).toBe(key(1, 7))
    // Still under the family a reset of every result names.
    expect(searchKeys.results('猫', 'video', 'relevance', NO_FILTER, 't').slice(0, 2)).toEqual(['search', 'results'])
  })
})
