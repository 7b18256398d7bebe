// Operator content (docs/api.md *Operator content*): the module tree with
// its counts and order, the video list (drafts too, keyset pages), video
// edits and bulk actions, and the console's uploads with progress.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'
import type { MediaView } from '@/lib/upload'

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

export interface AdminTag {
  id: number
  name: string
  sort: number
}

export type Access = 'free' | 'vip' | 'svip' | 'gold'

export interface AdminVideo {
  id: number
  title: string
  cover: string
  duration: number
  playCount: number
  moduleID: number
  subModuleID: number
  vipLevel: number
  coins: number
  access: Access
  published: boolean
  mediaId: number
  tags: AdminTag[]
  createdAt: Timestamp
}

export interface VideoFilters {
  moduleID?: number
  subModuleID?: number
  moduleType?: number
  published?: 0 | 1
  access?: Access
  coinsMin?: number
  coinsMax?: number
  title?: string
}

export interface VideoPage {
  list: AdminVideo[]
  pageSize: number
  hasMore: boolean
  nextCursor: string | null
}

export const VIDEO_PAGE = 20

export const getModules = () => api.get<AdminModule[]>('/api/admin/modules')
export const createModule = (b: { name: string; pid?: number; moduleType?: number }) => api.post<AdminModule>('/api/admin/modules', b)
export const renameModule = (id: number, name: string) => api.post<AdminModule>('/api/admin/modules/update', { id, name })
export const deleteModule = (id: number) => api.post<{ id: number }>('/api/admin/modules/delete', { id })
export const orderModules = (pid: number, ids: number[]) => api.post<AdminModule[]>('/api/admin/modules/order', { pid, ids })

export const getTags = () => api.get<AdminTag[]>('/api/admin/tags')

export const getVideos = (f: VideoFilters, cursor: string | null) => api.get<VideoPage>('/api/admin/videos', { ...f, cursor: cursor ?? undefined, pageSize: VIDEO_PAGE })
export const getVideo = (id: number) => api.get<AdminVideo>('/api/admin/videos/info', { id })

// The fields of a create or an update (an update sends only what changed).
export interface VideoBody {
  title?: string
  subModuleID?: number
  tagIds?: number[]
  coverId?: number
  vipLevel?: number
  coins?: number
  published?: boolean
}
export const createVideo = (b: VideoBody) => api.post<AdminVideo>('/api/admin/videos', b)
export const updateVideo = (id: number, b: VideoBody) => api.post<AdminVideo>('/api/admin/videos/update', { id, ...b })
export const publishVideo = (id: number, published: boolean) => api.post<AdminVideo>('/api/admin/videos/publish', { id, published })
export const deleteVideo = (id: number) => api.post<{ id: number }>('/api/admin/videos/delete', { id })
export const attachMedia = (videoId: number, mediaId: number) => api.post<{ videoId: number; mediaId: number }>('/api/admin/videos/media', { videoId, mediaId })
export const getMedia = (id: number) => api.get<{ list: MediaView[] }>('/api/admin/media', { id }).then((r) => r.list[0] ?? null)

export type BulkAction = 'publish' | 'unpublish' | 'move' | 'tag' | 'untag'
export const bulkVideos = (b: { ids: number[]; action: BulkAction; subModuleID?: number; tagIds?: number[] }) =>
  api.post<{ changed: number; ids: number[] }>('/api/admin/videos/bulk', b)

// The upload helper (XHR with progress) is shared: @/lib/upload.
export { uploadFile, uploadPercent, type MediaView } from '@/lib/upload'

export const contentKeys = {
  all: ['content'] as const,
  modules: ['content', 'modules'] as const,
  tags: ['content', 'tags'] as const,
  videos: ['content', 'videos'] as const,
  videoList: (f: VideoFilters, cursor: string | null) => ['content', 'videos', 'list', f, cursor] as const,
  video: (id: number) => ['content', 'videos', 'one', id] as const,
  media: (id: number) => ['content', 'media', id] as const,
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
