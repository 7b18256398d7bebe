// The numbers (docs/api.md *Statistics*): one rolled-up row per day and the
// top lists, read from the statistics tables; each also as CSV
// (format=csv), and a day rolled up now.
import { api } from '@/lib/client'

export interface StatsDay {
  day: string // YYYY-MM-DD, Asia/Shanghai
  rolled: boolean
  activeUsers: number
  newGuests: number
  registrations: number
  payers: number
  revenue: { topup: number; vip: number; total: number } // cents
  byProvider: Record<string, number> // cents by pay type
  withdrawals: { count: number; cents: number }
  plays: number
  searches: number
  funnel: { visits: number; registrations: number; firstPayments: number }
}

export interface StatsReport {
  days: StatsDay[]
  updatedAt: string | null
}

export type TopKind = 'video' | 'search'

export interface TopItem {
  key: string
  title?: string
  count: number
}

export interface Range {
  from: string
  to: string
}

export const getDaily = (r: Range) => api.get<StatsReport>('/api/admin/stats/daily', { from: r.from, to: r.to })
export const getTop = (kind: TopKind, r: Range, limit = 20) => api.get<TopItem[]>('/api/admin/stats/top', { kind, from: r.from, to: r.to, limit })
export const exportDaily = (r: Range) => api.download('/api/admin/stats/daily', { from: r.from, to: r.to, format: 'csv' })
export const exportTop = (kind: TopKind, r: Range, limit = 200) =>
  api.download('/api/admin/stats/top', { kind, from: r.from, to: r.to, limit, format: 'csv' })
export const rollup = (day: string) => api.post<unknown>('/api/admin/stats/rollup', { day })

export const statsKeys = {
  all: ['stats'] as const,
  daily: (r: Range) => ['stats', 'daily', r.from, r.to] as const,
  top: (kind: TopKind, r: Range, limit: number) => ['stats', 'top', kind, r.from, r.to, limit] as const,
}
