// The video detail as GET /api/app/vid/info answers it (docs/api.md,
// "Videos: detail, access and interactions").
import type { PaywallInfo } from '@/components/Paywall'
import type { Video } from '@/lib/video'

export interface Access {
  allowed: boolean
  reason: string
  unlock: { needVipLevel: number; coins: number }
}

// Playback is null until the video has transcoded media, and null when
// access is refused and the video is too short for a preview. url is a
// signed HLS master playlist: the full video when access is allowed, only
// its first whole segments (preview true, previewMs long) when it is
// refused; the server's playlist ends there, before the video does.
export interface Playback {
  url: string
  preview: boolean
  previewMs: number
  expiresAt: string
}

// VideoSummary: what of a video is the same for whoever asks, which a
// detail page can show before it knows who is asking (app/boot.ts).
export interface VideoSummary {
  id: number
  title: string
  cover: string
}

export interface VideoDetail extends Video {
  isLike: boolean
  isCollect: boolean
  access: Access
  paywall: PaywallInfo | null
  playback: Playback | null
  related: Video[]
}

export interface MineVideo extends Video {
  at: string
}

export interface ReportReason {
  code: string
  label: string
}
