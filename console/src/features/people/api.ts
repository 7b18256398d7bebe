// People (docs/api.md, *Operator API → People*): the user search, a user's
// page, ending sessions, bans and mutes; creator applications and feedback
// (the support calls).
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface UserView {
  uid: number
  name: string
  account: string | null // null for guests
  isGuest: boolean
  mobile: string // masked, '' when none
  banned: boolean
  role: string
  liveSessions: number
  vipLevel: number
  createdAt: Timestamp
}

export interface SearchPage {
  list: UserView[]
  nextCursor: string | null
}

export interface SessionInfo {
  id: string
  sysType: string
  device: string
  createdAt: number
  lastSeenAt: number
}

export interface DeviceInfo {
  devID: string
  sysType: string
  createdAt: number
  lastSeenAt: number
}

export interface Invitee {
  uid: number
  name: string
  boundAt: Timestamp
  registered: boolean
}

export interface Order {
  orderNo: string
  title: string
  amount: number // cents
  status: string
  payType: string
  createdAt: Timestamp
}

export interface Ban {
  uid: number
  bannedUntil: number // unix seconds
  forever: boolean
  reason: string
}

export interface Mute {
  uid: number
  mutedUntil: number // unix seconds
  reason: string
}

export interface UserDetail {
  user: UserView
  vip: { level: number; vipExpiresAt: Timestamp | null; svipExpiresAt: Timestamp | null }
  balances: { coins: number; income: number; incomeFrozen: number } | null // null: the role does not read money
  sessions: SessionInfo[]
  devices: DeviceInfo[]
  invites: { code: string; inviter: number | null; invitedCount: number; recent: Invitee[] } | null
  orders: Order[]
  ban: Ban | null
  mute: Mute | null
}

export const searchUsers = (q: string, cursor: string | null) => api.get<SearchPage>('/api/admin/users/search', cursor ? { q, cursor } : { q })
export const getUserDetail = (uid: number) => api.get<UserDetail>('/api/admin/users/detail', { uid })
export const revokeUserSessions = (uid: number, sessionId?: string) =>
  api.post<{ uid: number; revoked: number }>('/api/admin/users/sessions/revoke', sessionId ? { uid, sessionId } : { uid })

// A sanction's length: minutes, or forever (bans only); minutes 0 lifts.
export interface Sanction {
  uid: number
  minutes: number
  forever?: boolean
  reason: string
}
export const banUser = (s: Sanction) =>
  api.post<Ban>('/api/admin/users/ban', s.forever ? { uid: s.uid, forever: true, reason: s.reason } : { uid: s.uid, minutes: s.minutes, reason: s.reason })
export const muteUser = (s: Sanction) => api.post<Mute>('/api/admin/users/mute', { uid: s.uid, minutes: s.minutes, reason: s.reason })

// Creator applications (GET/POST /api/admin/settled...).
export type AppStatus = 'pending' | 'approved' | 'rejected'
export interface Application {
  id: number
  uid: number
  name: string
  contact: string
  intro: string
  category: string
  status: AppStatus
  reason: string
  createdAt: Timestamp
  decidedAt?: Timestamp
}
// A keyset page: nextCursor opens the next one (null on the last).
export interface CursorPage<T> {
  list: T[]
  hasMore: boolean
  nextCursor: string | null
}
export const getApplications = (status: AppStatus | '', cursor: string | null) =>
  api.get<CursorPage<Application>>('/api/admin/settled', { status: status || undefined, cursor: cursor ?? undefined, pageSize: 20 })
export const decideApplication = (id: number, approve: boolean, reason = '') =>
  api.post<{ application: Application; changed: boolean }>(approve ? '/api/admin/settled/approve' : '/api/admin/settled/reject', approve ? { id } : { id, reason })

// Feedback (GET /api/admin/feedback, POST /api/admin/feedback/reply).
export type FeedbackStatus = 'open' | 'replied'
export interface Feedback {
  id: number
  uid: number
  content: string
  contact: string
  status: FeedbackStatus
  images: { id: number; thumb: string; display: string }[]
  replies: { id: number; body: string; createdAt: Timestamp }[]
  createdAt: Timestamp
}
export const getFeedback = (status: FeedbackStatus | '', cursor: string | null) =>
  api.get<CursorPage<Feedback>>('/api/admin/feedback', { status: status || undefined, cursor: cursor ?? undefined, pageSize: 20 })
export const replyFeedback = (id: number, reply: string) => api.post<Feedback>('/api/admin/feedback/reply', { id, reply })

export const peopleKeys = {
  all: ['people'] as const,
  search: (q: string, cursor: string | null) => ['people', 'search', q, cursor] as const,
  detail: (uid: number) => ['people', 'detail', uid] as const,
  applicationsAll: ['people', 'applications'] as const,
  applications: (status: string, cursor: string | null) => ['people', 'applications', status, cursor] as const,
  feedbackAll: ['people', 'feedback'] as const,
  feedback: (status: string, cursor: string | null) => ['people', 'feedback', status, cursor] as const,
}
