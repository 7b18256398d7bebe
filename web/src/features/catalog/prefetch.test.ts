import { afterEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'

const get = vi.fn()
vi.mock('@/lib/api', () => ({ api: { get: (...a: unknown[]) => get(...a) } }))
const { prefetchHome } = await import('./prefetch')
const { useAppStore } = await import('@/stores/app')
const { useConfigStore } = await import('@/stores/config')
const { modulesQueryOptions } = await import('./api/get-modules')
const { moduleSectionsQueryOptions } = await import('./api/get-module-sections')
const { announcementsQueryOptions } = await import('./api/get-announcements')

const modules = [
  { moduleID: 1, moduleName: '推荐', moduleType: 0, sort: 1, subModules: [{ id: 11, moduleName: '热门', moduleType: 0, pid: 1, sort: 1 }] },
  { moduleID: 2, moduleName: '最新', moduleType: 0, sort: 2, subModules: [] },
]
const page = { list: [], pageNumber: 1, pageSize: 4, total: 0 }
const notices = [{ id: 1, title: '公告', content: '', link: '' }]

function answer(failModules = false) {
  get.mockImplementation((path: string) => {
    if (path === '/api/app/modules/list') return failModules ? Promise.reject(new Error('down')) : Promise.resolve(modules)
    if (path === '/api/app/vid/moduleSection') return Promise.resolve(page)
    if (path === '/api/app/modules/announce') return Promise.resolve(notices)
    return Promise.reject(new Error('unexpected ' + path))
  })
}
const sectionCalls = () => get.mock.calls.filter((c) => c[0] === '/api/app/vid/moduleSection')
const client = () => new QueryClient({ defaultOptions: { queries: { retry: false } } })

describe('prefetchHome', () => {
  afterEach(() => {
    get.mockReset()
    useAppStore.setState({ tabs: {} })
    useConfigStore.setState({ source: null })
  })

  it('loads the modules, then the first sections of the remembered module tab', async () => {
    answer()
    useAppStore.setState({ tabs: { home: 2 } })
    const c = client()
    await prefetchHome(c)
    expect(get).toHaveBeenCalledWith('/api/app/modules/list', { moduleType: 0 }, { public: true })
    expect(sectionCalls()).toHaveLength(1)
    expect(sectionCalls()[0][1]).toMatchObject({ moduleID: 2, pageNumber: 1 })
    // Under the keys the page reads.
    expect(c.getQueryData(modulesQueryOptions(0).queryKey)).toEqual(modules)
    expect(c.getQueryData(moduleSectionsQueryOptions(2).queryKey)?.pages).toEqual([page])
  })

  it('asks for the announcements alongside the modules, not after', async () => {
    answer()
    const c = client()
    const done = prefetchHome(c)
    // Both requests are out before either answer has come back.
    expect(get.mock.calls.map((x) => x[0])).toEqual(['/api/app/modules/announce', '/api/app/modules/list'])
    await done
    await vi.waitFor(() => expect(c.getQueryData(announcementsQueryOptions().queryKey)).toEqual(notices))
  })

  it("uses the operator's default tab when none is remembered", async () => {
    answer()
    useConfigStore.setState({ source: { MODULESELECTINDEX: [{ title: '3' }] } as never })
    await prefetchHome(client())
    // Tabs: m1, s11, m2; the third is module 2.
    expect(sectionCalls()[0][1]).toMatchObject({ moduleID: 2 })
  })

  it('asks for no sections when the tab is a sub-module', async () => {
    answer()
    useAppStore.setState({ tabs: { home: 11 } })
    await prefetchHome(client())
    expect(sectionCalls()).toHaveLength(0)
  })

  it('stops quietly when the module list fails', async () => {
    answer(true)
    await expect(prefetchHome(client())).resolves.toBeUndefined()
    expect(sectionCalls()).toHaveLength(0)
  })
})
