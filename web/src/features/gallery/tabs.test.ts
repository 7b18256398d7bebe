import { describe, expect, it } from 'vitest'
import { categoryTabs, pickTab } from './tabs'

describe('categoryTabs', () => {
  const one = [{ moduleID: 7, moduleName: '图片', subModules: [{ id: 8, moduleName: '风景' }, { id: 9, moduleName: '人像' }] }]

  it('puts "all" first, then the sub-modules', () => {
    expect(categoryTabs(one, '全部')).toEqual([
      { key: 'm7', name: '全部', moduleID: 7 },
      { key: 's8', name: '风景', subModuleID: 8 },
      { key: 's9', name: '人像', subModuleID: 9 },
    ])
  })

  it('names each module when there are several', () => {
    const two = [...one, { moduleID: 10, moduleName: '壁纸', subModules: [] }]
    expect(categoryTabs(two, '全部').map((t) => t.name)).toEqual(['图片', '风景', '人像', '壁纸'])
    expect(categoryTabs([], '全部')).toEqual([])
  })

  it('picks the tab the URL names, else the first', () => {
    const tabs = categoryTabs(one, '全部')
    expect(pickTab(tabs, 's9')?.subModuleID).toBe(9)
    expect(pickTab(tabs, 's99')?.key).toBe('m7')
    expect(pickTab(tabs, null)?.key).toBe('m7')
    expect(pickTab([], 's9')).toBeUndefined()
  })
})
