import { describe, expect, it } from 'vitest'
import { bannerIndex, channelSwipe, defaultTabIndex, homeTabs, neighbourTab, pickTab } from './tabs'
import type { Module } from './types'

const mod = (moduleID: number, name: string, subs: [number, string][]): Module => ({
  moduleID,
  moduleName: name,
  moduleType: 0,
  sort: moduleID,
  subModules: subs.map(([id, moduleName], i) => ({ id, moduleName, moduleType: 0, pid: moduleID, sort: i })),
})

const modules = [mod(1, '首页', [[2, '推荐'], [3, '最新']]), mod(10, '专题', [[11, '纪录片']])]

describe('home tabs', () => {
  it('lists each module followed by its sub-modules', () => {
    expect(homeTabs(modules).map((t) => `${t.kind}:${t.id}:${t.name}`)).toEqual([
      'module:1:首页',
      'sub:2:推荐',
      'sub:3:最新',
      'module:10:专题',
      'sub:11:纪录片',
    ])
  })

  it('keeps the remembered tab while it exists', () => {
    const tabs = homeTabs(modules)
    expect(pickTab(tabs, 3, 1)?.key).toBe('s3')
    expect(pickTab(tabs, 10, 1)?.key).toBe('m10')
  })

  it('falls back to the configured 1-based default, then the first tab', () => {
    const tabs = homeTabs(modules)
    expect(pickTab(tabs, 99, 2)?.key).toBe('s2')
    expect(pickTab(tabs, undefined, 1)?.key).toBe('m1')
    expect(pickTab(tabs, undefined, 0)?.key).toBe('m1')
    expect(pickTab(tabs, undefined, 42)?.key).toBe('m1')
    expect(pickTab([], undefined, 1)).toBeUndefined()
  })

  it('reads MODULESELECTINDEX from the remote configuration', () => {
    expect(defaultTabIndex([{ title: '3' }])).toBe(3)
    expect(defaultTabIndex([{ title: 'x' }])).toBe(1)
    expect(defaultTabIndex(undefined)).toBe(1)
  })
})

describe('sideways swipe on home', () => {
  const tabs = homeTabs([mod(1, 'A', [[11, 'a1']]), mod(2, 'B', [])])
  it('moves to the neighbouring tab, not past the ends', () => {
    expect(neighbourTab(tabs, 'm1', 1)?.key).toBe('s11')
    expect(neighbourTab(tabs, 's11', 1)?.key).toBe('m2')
    expect(neighbourTab(tabs, 's11', -1)?.key).toBe('m1')
    expect(neighbourTab(tabs, 'm1', -1)).toBeUndefined()
    expect(neighbourTab(tabs, 'm2', 1)).toBeUndefined()
    expect(neighbourTab(tabs, 'zz', 1)).toBeUndefined()
  })
  it('needs distance or a flick', () => {
    expect(channelSwipe(-80, 0)).toBe(1)
    expect(channelSwipe(80, 0)).toBe(-1)
    expect(channelSwipe(-20, -2)).toBe(0)
    expect(channelSwipe(-40, -0.8)).toBe(1)
    expect(channelSwipe(-40, 0.8)).toBe(0)
    expect(channelSwipe(-40, -0.1)).toBe(0)
  })
  it('banner steps wrap', () => {
    expect(bannerIndex(2, 3, 1)).toBe(0)
    expect(bannerIndex(0, 3, -1)).toBe(2)
    expect(bannerIndex(0, 0, 1)).toBe(0)
  })
})
