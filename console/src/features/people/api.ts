// People: one user by uid or account (GET /api/admin/users) and signing
// them out everywhere (POST /api/admin/users/sessions/revoke).
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface UserView {
  uid: number
  name: string
  account: string | null // null for guests
  isGuest: boolean
  role: string
  liveSessions: number
  vipLevel: number
  createdAt: Timestamp
}

export type Lookup = { by: 'uid'; uid: number } | { by: 'account'; account: string }

export const getUser = (l: Lookup) => api.get<UserView>('/api/admin/users', l.by === 'uid' ? { uid: l.uid } : { account: l.account })
export const revokeUserSessions = (uid: number) => api.post<{ uid: number; revoked: number }>('/api/admin/users/sessions/revoke', { uid })

export const peopleKeys = {
  all: ['people'] as const,
  user: (l: Lookup) => ['people', 'user', l] as const,
  byUid: (uid: number) => ['people', 'user', { by: 'uid', uid }] as const,
}
