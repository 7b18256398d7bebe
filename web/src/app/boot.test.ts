import { describe, expect, it } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { modulesQueryOptions } from '@/features/catalog/api/get-modules'
import { moduleSectionsQueryOptions } from '@/features/catalog/api/get-module-sections'
import { announcementsQueryOptions } from '@/features/catalog/api/get-announcements'
import { sourceQueryOptions } from '@/features/config/api/get-source'
import { useConfigStore } from '@/stores/config'
import { shortModulesQueryOptions } from '@/features/shortvideo/api/get-short-modules'
import { shortKeys } from '@/features/shortvideo/keys'
import { videoKeys } from '@/features/video/keys'
import { parseBoot, seedBoot } from './boot'

const page = { list: [{ id: 5, moduleName: 'a', moduleID: 1, videos: [] }], total: 1, pageNumber: 1, pageSize: 4, hasMore: false }
const full = {
  source: { APPNAME: [{ title: 'P', url: '', weight: 0 }], gate: { mode: 'off', redirectURL: '', publicURL: '' }, ads: [] },
  modules: [{ moduleID: 1, moduleName: '推荐', moduleType: 0, sort: 1, subModules: [] }],
  announce: [],
  sections: { moduleID: 1, page },
}

describe('home boot', () => {
  it('reads each part that has the right shape', () => {
    expect(parseBoot(JSON.stringify(full))).toEqual(full)
    expect(parseBoot(null)).toEqual({})
    expect(parseBoot('not json')).toEqual({})
    expect(parseBoot('[1]')).toEqual({})
    const bad = parseBoot(
      JSON.stringify({ source: { gate: null }, modules: {}, announce: 'x', sections: { moduleID: 0, page } }),
    )
    expect(bad).toEqual({})
    expect(parseBoot(JSON.stringify({ sections: { moduleID: 1.5, page } }))).toEqual({})
    expect(parseBoot(JSON.stringify({ sections: { moduleID: 2, page: { list: null } } }))).toEqual({})
  })

  it('seeds the cache under the keys the pages read, keeping what is there', () => {
    const c = new QueryClient()
    const mine = [{ moduleID: 9 }]
    c.setQueryData(modulesQueryOptions(0).queryKey, mine as never)
    seedBoot(c, parseBoot(JSON.stringify(full)))
    expect(c.getQueryData(modulesQueryOptions(0).queryKey)).toBe(mine)
    expect(c.getQueryData(sourceQueryOptions().queryKey)).toEqual(full.source)
    expect(c.getQueryData(announcementsQueryOptions().queryKey)).toEqual([])
    expect(c.getQueryData(moduleSectionsQueryOptions(1).queryKey)).toEqual({ pages: [page], pageParams: [1] })
    expect(useConfigStore.getState().source).toEqual(full.source)
  })
})

describe('short-video boot', () => {
  it('seeds the short modules and the first feed page under the feed key', () => {
    const feed = { list: [{ id: 9, title: 's', cover: '/media/covers/x.jpg' }], total: 1, pageNumber: 1, pageSize: 10, hasMore: false }
    const mods = [{ moduleID: 7, moduleName: '短视频', moduleType: 4, sort: 1, subModules: [] }]
    const boot = parseBoot(JSON.stringify({ shortModules: mods, shortFeed: { moduleID: 7, page: feed } }))
    expect(boot).toEqual({ shortModules: mods, shortFeed: { moduleID: 7, page: feed } })
    const c = new QueryClient()
    seedBoot(c, boot)
    expect(c.getQueryData(shortModulesQueryOptions().queryKey)).toEqual(mods)
    expect(c.getQueryData(shortKeys.feed({ moduleID: 7 }))).toEqual({ pages: [feed], pageParams: [1] })
    expect(parseBoot(JSON.stringify({ shortModules: {}, shortFeed: { moduleID: -1, page: feed } }))).toEqual({})
  })
})

describe('detail boot', () => {
  it("seeds the video's public title and cover under its summary key, and the configuration", () => {
    const detail = { id: 12, title: '老街', cover: '/media/covers/set/x.jpg' }
    const boot = parseBoot(JSON.stringify({ source: full.source, detail }))
    expect(boot).toEqual({ source: full.source, detail })
    const c = new QueryClient()
    seedBoot(c, boot)
    expect(c.getQueryData(videoKeys.summary(12))).toEqual(detail)
    expect(c.getQueryData(sourceQueryOptions().queryKey)).toEqual(full.source)
    for (const bad of [{ ...detail, id: 0 }, { ...detail, id: '12' }, { ...detail, title: null }, { id: 12, title: 't' }]) {
      expect(parseBoot(JSON.stringify({ detail: bad }))).toEqual({})
    }
  })
})
