// The operator's console sessions and API keys (owner: everyone's).
import { api } from '@/lib/client'
import type { Role } from '@/lib/session'
import type { Timestamp } from '@/lib/time'

export interface ConsoleSession {
  id: number | string
  account: string
  role: Role
  createdAt: Timestamp
  lastSeenAt: Timestamp
  ip: string
  userAgent: string
  current: boolean
}

export interface ApiKey {
  id: number | string
  account: string
  role: Role
  prefix: string
  createdAt: Timestamp
  expiresAt: Timestamp | null
  lastUsedAt: Timestamp | null
  revokedAt: Timestamp | null
}

export const getSessions = () => api.get<{ list: ConsoleSession[] }>('/api/admin/sessions')
export const revokeSession = (id: ConsoleSession['id']) => api.post<{ revoked: boolean }>('/api/admin/sessions/revoke', { id })
export const getKeys = () => api.get<{ list: ApiKey[] }>('/api/admin/keys')
export const revokeKey = (id: ApiKey['id']) => api.post<unknown>('/api/admin/keys/revoke', { id })

export const securityKeys = {
  sessions: ['security', 'sessions'] as const,
  keys: ['security', 'keys'] as const,
}
