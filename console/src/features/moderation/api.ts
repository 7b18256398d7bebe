// Moderation (docs/api.md *Moderation*): the post review queue with bulk
// decisions, comments, the three report queues with their handling, and
// the blocked-words list.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface Author {
  uid: number
  name: string
}

export interface AdminPost {
  id: number
  kind: string
  title: string
  summary: string
  body: string
  author: Author
  state: string
  reason?: string
  openReports: number
  createdAt: Timestamp
}

// A keyset page: nextCursor opens the next one (null on the last).
export interface CursorPage<T> {
  list: T[]
  nextCursor: string | null
}

export interface Reviewed {
  changed: number
  ids: number[]
  skipped: number[]
}

export interface AdminComment {
  id: number
  postId: number
  parentId: number
  author: Author
  text: string
  state: string
  createdAt: Timestamp
}

export interface PostReport {
  id: number
  postId: number
  commentId: number
  reason: string
  state: string
  createdAt: Timestamp
  reporter: Author
  targetAuthor: Author
  postTitle: string
  text: string
  targetState: string
  openReports: number
}

export interface VideoReports {
  videoId: number
  title: string
  published: boolean
  count: number
  reasons: Record<string, number>
  lastAt: Timestamp
  resolution?: string
  resolvedAt?: Timestamp
}

export interface MessageReport {
  id: number
  reporter: Author
  reported: Author
  reason: string
  createdAt: Timestamp
  messages: { id: number; from: number; text: string; kind: string; createdAt: Timestamp }[]
  state: string
  resolution: string
}

export interface WordList {
  words: string[]
  updatedAt: Timestamp
  version: number
}

export const PAGE = 20

export const getPending = (cursor: string | null) =>
  api.get<CursorPage<AdminPost>>('/api/admin/community/posts', { state: 'pending', cursor: cursor ?? undefined, pageSize: PAGE })
export const reviewPost = (id: number, approve: boolean, reason = '') =>
  api.post<AdminPost>('/api/admin/community/posts/review', { id, approve, reason })
export const reviewPosts = (ids: number[], approve: boolean, reason = '') =>
  api.post<Reviewed>('/api/admin/community/posts/review', { ids, approve, reason })
export const removePost = (id: number, reason: string) => api.post<AdminPost>('/api/admin/community/posts/remove', { id, reason })

export const getComments = (postID: number | undefined, cursor: string | null) =>
  api.get<CursorPage<AdminComment>>('/api/admin/community/comments', { postID, cursor: cursor ?? undefined, pageSize: PAGE })
export const removeComment = (id: number, reason: string) => api.post<unknown>('/api/admin/community/comments/remove', { id, reason })

export type ReportState = 'open' | 'resolved'
export const getPostReports = (state: ReportState, cursor: string | null) =>
  api.get<CursorPage<PostReport>>('/api/admin/community/reports', { state, cursor: cursor ?? undefined, pageSize: PAGE })
export const resolvePostReport = (id: number) => api.post<{ resolved: number }>('/api/admin/community/reports/resolve', { id })

export const getVideoReports = (status: ReportState, cursor: string | undefined) =>
  api.get<CursorPage<VideoReports>>('/api/admin/videos/reports', { status, cursor, size: PAGE })
export const resolveVideoReports = (id: number, action: 'dismiss' | 'unpublish') =>
  api.post<{ resolved: number; published: boolean }>('/api/admin/videos/reports/resolve', { id, action })

export const getMessageReports = (status: ReportState, cursor: string | null) =>
  api.get<CursorPage<MessageReport>>('/api/admin/message/reports', { status, cursor: cursor ?? undefined, pageSize: PAGE })
export const resolveMessageReport = (id: number, action: 'dismiss' | 'mute', minutes?: number, reason?: string) =>
  api.post<{ state: string }>('/api/admin/message/reports/resolve', { id, action, minutes, reason })

export const getWords = () => api.get<WordList>('/api/admin/moderation/words')
export const saveWords = (words: string[]) => api.post<WordList>('/api/admin/moderation/words', { words })

export const modKeys = {
  all: ['moderation'] as const,
  pending: (cursor: string | null) => ['moderation', 'pending', cursor] as const,
  comments: (post: number | undefined, cursor: string | null) => ['moderation', 'comments', post, cursor] as const,
  postReports: (s: ReportState, cursor: string | null) => ['moderation', 'reports', 'posts', s, cursor] as const,
  videoReports: (s: ReportState, cursor: string | undefined) => ['moderation', 'reports', 'videos', s, cursor] as const,
  messageReports: (s: ReportState, cursor: string | null) => ['moderation', 'reports', 'messages', s, cursor] as const,
  words: ['moderation', 'words'] as const,
}
