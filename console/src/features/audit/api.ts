// GET /api/admin/audit (keyset on id, newest first) and its CSV twin.
import { api } from '@/lib/client'
import type { Params } from '@/lib/api'
import type { Timestamp } from '@/lib/time'

export interface AuditRow {
  id: number
  at: Timestamp
  actor: number // uid; 0 is the command line
  actorAccount: string
  action: string
  target: string
  before: unknown
  after: unknown
  ip: string
  hash: string
  prevHash: string
}

export interface AuditPage {
  list: AuditRow[]
  nextCursor: string | null
}

export interface AuditFilters {
  actor?: string
  action?: string
  target?: string
  from?: string // RFC 3339
  to?: string
}

export const PAGE_SIZE = 50

export function auditParams(f: AuditFilters): Params {
  return { actor: f.actor, action: f.action, target: f.target, from: f.from, to: f.to }
}

export function getAudit(f: AuditFilters, cursor: string | null, limit = PAGE_SIZE): Promise<AuditPage> {
  return api.get<AuditPage>('/api/admin/audit', { ...auditParams(f), cursor, limit })
}

export function exportAudit(f: AuditFilters) {
  return api.download('/api/admin/audit.csv', auditParams(f))
}

export const auditKeys = {
  all: ['audit'] as const,
  list: (f: AuditFilters, cursor: string | null, limit = PAGE_SIZE) => ['audit', 'list', f, cursor, limit] as const,
}
