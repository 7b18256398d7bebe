// What the overview reads: the latest audit entries and the module tree's
// counts, each only when the role has that section. (Its own small view of
// those answers: a feature does not import another.)
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface RecentRow {
  id: number
  at: Timestamp
  actor: number
  actorAccount: string
  action: string
  target: string
}

export interface ModuleCounts {
  id: number
  videoCount: number
  publishedCount: number
  subModules?: unknown[]
}

export const getRecent = () => api.get<{ list: RecentRow[] }>('/api/admin/audit', { limit: 8 })
export const getModuleCounts = () => api.get<ModuleCounts[]>('/api/admin/modules')

export const dashKeys = {
  recent: ['dashboard', 'recent'] as const,
  modules: ['dashboard', 'modules'] as const,
}
