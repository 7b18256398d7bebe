// Operator content (docs/api.md *Operator content*): the module tree with
// its counts and order, the video list (drafts too, keyset pages), video
// edits and bulk actions, and the console's uploads with progress.
import { api } from '@/lib/client'
import { ApiError, unwrap } from '@/lib/api'
import { token } from '@/lib/session-store'
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

export interface MediaView {
  id: number
  kind: 'image' | 'video'
  state: 'processing' | 'ready' | 'failed'
  durationMs: number
  width: number
  height: number
  error?: string
  thumb?: string
  createdAt: Timestamp
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

// uploadFile sends a file to POST /api/admin/media/upload (multipart, the
// field "file") with XMLHttpRequest, whose upload events give the
// progress fetch does not; onProgress gets 0..100. The answer is the
// asset (a video is "processing" until transcoded).
export function uploadFile(file: File, onProgress: (pct: number) => void, signal?: AbortSignal): Promise<MediaView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/admin/media/upload')
    const tok = token()
    if (tok) xhr.setRequestHeader('Authorization', `Bearer ${tok}`)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(uploadPercent(e.loaded, e.total))
    }
    xhr.onload = () => {
      try {
        resolve(unwrap<MediaView>(xhr.status, xhr.responseText))
      } catch (e) {
        reject(e)
      }
    }
    const fail = (msg: string) => reject(new ApiError({ status: 0, code: 0, tip: '网络连接失败，请检查网络后重试', msg, kind: 'network' }))
    xhr.onerror = () => fail('upload failed')
    xhr.onabort = () => fail('upload cancelled')
    signal?.addEventListener('abort', () => xhr.abort())
    const form = new FormData()
    form.append('file', file)
    xhr.send(form)
  })
}

// uploadPercent is the whole percent sent, 0..100 (100 only when all is).
export function uploadPercent(loaded: number, total: number): number {
  if (total <= 0) return 0
  if (loaded >= total) return 100
  return Math.min(99, Math.floor((loaded / total) * 100))
}

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
