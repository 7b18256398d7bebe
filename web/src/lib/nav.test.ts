import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { applyCurrentOp, currentOpAfter, CURRENT_OP_ROUTES } from './nav'
import { storage } from './storage'
import { MemoryStorage } from './testing'

describe('currentOpAfter', () => {
  it('is 1 after leaving exactly the five listed pages', () => {
    expect([...CURRENT_OP_ROUTES]).toEqual(['detail', 'homesearch', 'topic', 'usercenter', 'postdetail'])
    for (const r of CURRENT_OP_ROUTES) expect(currentOpAfter(r)).toBe(1)
  })

  it.each(['home', 'search', 'usercentermy', 'Detail', 'detail ', '', 'community', 'mine'])('is null after %j', (r) => {
    expect(currentOpAfter(r)).toBeNull()
  })

  it('is null when there was no previous page', () => {
    expect(currentOpAfter(undefined)).toBeNull()
    expect(currentOpAfter(null)).toBeNull()
  })
})

describe('applyCurrentOp', () => {
  let ls: MemoryStorage
  beforeEach(() => {
    ls = new MemoryStorage()
    vi.stubGlobal('localStorage', ls)
  })
  afterEach(() => vi.unstubAllGlobals())

  it('sets the flag, then removes it on the next navigation from elsewhere', () => {
    applyCurrentOp('detail')
    expect(ls.map.get('prima_current_op')).toBe('1')
    expect(storage.get('current_op')).toBe(1)
    applyCurrentOp('home')
    expect(ls.map.has('prima_current_op')).toBe(false)
  })
})
