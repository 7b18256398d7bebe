// The first screen, sent inside the page by the server
// (internal/app/homeboot.go): for /, /main and /home the answers of
// vid/source, modules/list?moduleType=0, modules/announce and the default
// tab's first moduleSection page; for /shortvideo those of
// modules/list?moduleType=4 and the first module's first feed page; each
// exactly as the API sends its `data`. /detail/:id carries vid/source and
// the video's public title and cover (the rest of vid/info depends on who
// asks), which the page draws while the guest signs in. Reading them
// into the query cache before anything asks spares the phone the chain of
// calls before the first cover (entry script -> modules -> sections ->
// image). Whatever is missing or malformed is simply left to the normal
// calls.
import type { QueryClient } from '@tanstack/react-query'
import { announcementsQueryOptions } from '@/features/catalog/api/get-announcements'
import { modulesQueryOptions } from '@/features/catalog/api/get-modules'
import { moduleSectionsQueryOptions } from '@/features/catalog/api/get-module-sections'
import { sourceQueryOptions } from '@/features/config/api/get-source'
import type { Announcement, Module, Section } from '@/features/catalog/types'
import { shortModulesQueryOptions } from '@/features/shortvideo/api/get-short-modules'
import { shortKeys } from '@/features/shortvideo/keys'
import type { ShortModule, ShortVideo } from '@/features/shortvideo/types'
import { videoKeys } from '@/features/video/keys'
import type { VideoSummary } from '@/features/video/types'
import { useConfigStore, type SourceConfig } from '@/stores/config'
import type { Page } from '@/lib/page'

export const BOOT_ELEMENT_ID = 'prima-home-data'

export interface HomeBoot {
  source?: SourceConfig
  modules?: Module[]
  announce?: Announcement[]
  sections?: { moduleID: number; page: Page<Section> }
  // /shortvideo: the short modules and the first one's first feed page.
  shortModules?: ShortModule[]
  shortFeed?: { moduleID: number; page: Page<ShortVideo> }
  // /detail/:id: what of the video is the same for everyone.
  detail?: VideoSummary
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

// parseBoot keeps only the parts that have the right shape.
export function parseBoot(text: string | null | undefined): HomeBoot {
  if (!text) return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return {}
  }
  if (!isObject(raw)) return {}
  const out: HomeBoot = {}
  if (isObject(raw.source) && isObject(raw.source.gate)) out.source = raw.source as unknown as SourceConfig
  if (Array.isArray(raw.modules)) out.modules = raw.modules as Module[]
  if (Array.isArray(raw.announce)) out.announce = raw.announce as Announcement[]
  const paged = (v: unknown): v is { moduleID: number; page: { list: unknown[] } } =>
    isObject(v) && Number.isInteger(v.moduleID) && (v.moduleID as number) > 0 && isObject(v.page) && Array.isArray(v.page.list)
  if (paged(raw.sections)) out.sections = { moduleID: raw.sections.moduleID, page: raw.sections.page as unknown as Page<Section> }
  if (Array.isArray(raw.shortModules)) out.shortModules = raw.shortModules as ShortModule[]
  const d = raw.detail
  if (isObject(d) && Number.isInteger(d.id) && (d.id as number) > 0 && typeof d.title === 'string' && typeof d.cover === 'string') {
    out.detail = { id: d.id as number, title: d.title, cover: d.cover }
  }
  if (paged(raw.shortFeed)) out.shortFeed = { moduleID: raw.shortFeed.moduleID, page: raw.shortFeed.page as unknown as Page<ShortVideo> }
  return out
}

// seedBoot puts the boot data into the cache (and the configuration into
// its store, as its fetch would). A query that already holds data keeps it.
export function seedBoot(client: QueryClient, boot: HomeBoot): void {
  const put = (key: readonly unknown[], data: unknown) => {
    if (client.getQueryData(key) === undefined) client.setQueryData(key, data)
  }
  if (boot.source) {
    put(sourceQueryOptions().queryKey, boot.source)
    useConfigStore.getState().setSource(boot.source)
  }
  if (boot.modules) put(modulesQueryOptions(0).queryKey, boot.modules)
  if (boot.announce) put(announcementsQueryOptions().queryKey, boot.announce)
  if (boot.sections) put(moduleSectionsQueryOptions(boot.sections.moduleID).queryKey, { pages: [boot.sections.page], pageParams: [1] })
  if (boot.shortModules) put(shortModulesQueryOptions().queryKey, boot.shortModules)
  if (boot.detail) put(videoKeys.summary(boot.detail.id), boot.detail)
  if (boot.shortFeed) put(shortKeys.feed({ moduleID: boot.shortFeed.moduleID }), { pages: [boot.shortFeed.page], pageParams: [1] })
}

// readBoot reads the page's boot block once and removes it.
export function readBoot(client: QueryClient): void {
  if (typeof document === 'undefined') return
  const el = document.getElementById(BOOT_ELEMENT_ID)
  if (!el) return
  seedBoot(client, parseBoot(el.textContent))
  el.remove()
}
