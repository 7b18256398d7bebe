// Shapes this feature reads from the server (docs/api.md, Catalog and
// Videos). Declared here or in src/lib rather than imported from another
// feature, which the lint rules forbid.
import type { Video } from '@/lib/video'

export interface ShortModule {
  moduleID: number
  moduleName: string
  moduleType: number
  subModules: { id: number; moduleName: string; pid: number }[]
}

// A short video is a video of the short-video module: the shared shape
// (src/lib/video.ts) that every video list reads.
export type ShortVideo = Video

export type Refusal = 'login' | 'need_vip' | 'need_svip' | 'need_coins'

export interface VideoInfo extends ShortVideo {
  isLike: boolean
  isCollect: boolean
  access: { allowed: boolean; reason: string }
  paywall: { reason: Refusal; needVipLevel: number; coins: number; tip: string; previewMs: number } | null
  // null also when refused and too short for a preview: the paywall at once.
  playback: { url: string; preview: boolean; previewMs: number; expiresAt: number } | null
  // The user whose upload the clip plays; null for the platform's own.
  uploader?: { uid: number; name: string; portrait: string; isFollow: boolean } | null
}

// FeedSource is what a feed lists: one whole short-video module, or one
// of its sub-modules.
export type FeedSource = { moduleID: number } | { subModuleID: number }
