// Backups (docs/api.md, *Backups*; docs/deploy.md): the schedule, the
// finished backups in PRIMA_BACKUP_TO with their counts, the latest runs of
// the backup job; a backup now (owner, step-up).
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface BackupSummary {
  name: string
  createdAt: Timestamp
  engine: string
  schema: string
  databaseBytes: number
  mediaCount: number
  mediaBytes: number
  error?: string
}

export type RunState = 'available' | 'retryable' | 'running' | 'succeeded' | 'dead'

export interface BackupRun {
  id: number
  state: RunState
  attempt: number
  runAt: Timestamp
  finishedAt: Timestamp | null
  lastError: string
}

export interface BackupsPage {
  configured: boolean
  place: string
  everySeconds: number
  keep: number
  backups: BackupSummary[]
  runs: BackupRun[]
  listError?: string
}

export const backupKeys = { page: ['backups'] as const }
export const getBackups = () => api.get<BackupsPage>('/api/admin/backups')
export const runBackup = () => api.post<{ jobID: number; queued: boolean }>('/api/admin/backups', {})

// bytes in B, KB, MB, GB (1024-based, one decimal past KB).
export function bytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB']
  let v = n
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return i === 0 ? `${v} B` : `${v.toFixed(1)} ${units[i]}`
}

// every: a period in seconds as the largest whole unit (24h -> "24 h", 2d).
export function every(seconds: number): { n: number; unit: 'd' | 'h' | 'm' } {
  if (seconds % 86400 === 0 && seconds >= 86400 * 2) return { n: seconds / 86400, unit: 'd' }
  if (seconds % 3600 === 0) return { n: seconds / 3600, unit: 'h' }
  return { n: Math.round(seconds / 60), unit: 'm' }
}
