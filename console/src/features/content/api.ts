// Operator content reads (docs/api.md *Operator content*): the module tree
// with its counts, and the video list (drafts too), paged by the server.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface AdminModule {
  id: number
  pid: number
  name: string
  moduleType: number
  sort: number
  videoCount: number
  publishedCount: number
  subModules?: AdminModule[]
  createdAt: Timestamp
}

export interface AdminVideo {
  id: number
  title: string
  cover: string
  duration: number
  playCount: number
  moduleId: number
  subModuleId: number
  vipLevel: number
  coins: number
  access: 'free' | 'vip' | 'svip' | 'gold'
  published: boolean
  createdAt: Timestamp
}

export interface VideoFilters {
  moduleId?: number
  subModuleId?: number
  published?: 0 | 1
  title?: string
}

export interface VideoPage {
  list: AdminVideo[]
  pageNumber: number
  pageSize: number
  hasMore: boolean
}

export const VIDEO_PAGE = 20

export const getModules = () => api.get<AdminModule[]>('/api/admin/modules')
export const getVideos = (f: VideoFilters, pageNumber: number) =>
  api.get<VideoPage>('/api/admin/videos', { moduleId: f.moduleId, subModuleId: f.subModuleId, published: f.published, title: f.title, pageNumber, pageSize: VIDEO_PAGE })

export const contentKeys = {
  modules: ['content', 'modules'] as const,
  videos: (f: VideoFilters, page: number) => ['content', 'videos', f, page] as const,
}

// moduleTotals sums the tree for the overview: counts come with the
// modules, so nothing counts the videos table again.
export function moduleTotals(mods: AdminModule[]): { top: number; sub: number; videos: number; published: number } {
  let sub = 0
  let videos = 0
  let published = 0
  for (const m of mods) {
    sub += m.subModules?.length ?? 0
    videos += m.videoCount
    published += m.publishedCount
  }
  return { top: mods.length, sub, videos, published }
}
