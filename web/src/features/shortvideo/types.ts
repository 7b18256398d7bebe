// Shapes this feature reads from the server (docs/api.md, Catalog and
// Videos). Declared here rather than imported: a feature never imports
// another feature.

export interface ShortModule {
  moduleID: number
  moduleName: string
  moduleType: number
  subModules: { id: number; moduleName: string; pid: number }[]
}

export interface ShortVideo {
  id: number
  title: string
  cover: string
  duration: number
  playCount: number
  likeCount: number
  tags: string[]
  vipLevel: 0 | 1 | 2
  coins: number
}

export interface Paged<T> {
  list: T[]
  total: number
  pageNumber: number
  pageSize: number
  hasMore: boolean
}

export type Refusal = 'login' | 'need_vip' | 'need_svip' | 'need_coins'

export interface VideoInfo extends ShortVideo {
  isLike: boolean
  isCollect: boolean
  access: { allowed: boolean; reason: string }
  paywall: { reason: Refusal; needVipLevel: number; coins: number; tip: string } | null
  playback: { url: string; preview: boolean; expiresAt: number } | null
}

// FeedSource is what a feed lists: one whole short-video module, or one
// of its sub-modules.
export type FeedSource = { moduleID: number } | { subModuleID: number }
