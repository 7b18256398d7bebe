// /source: every video of one source (a sub-module, or a whole module of
// home or dark) as a grid the user can filter the way moduleVideo allows:
// sort order, duration band and "last 7 days". The filters live in the
// query string, so a filtered list can be shared and the back button
// returns to it.
import type { SortType } from '@/features/catalog/api/get-module-videos'

// playTimeType: 0 any, 1 under 5 min, 2 5-20 min, 3 20 min and over.
export type PlayTimeType = 0 | 1 | 2 | 3

export interface SourceQuery {
  subModuleID?: number
  moduleID?: number
  title?: string
  sortType: SortType
  playTimeType: PlayTimeType
  newsType: 0 | 1
}

// positive reads a positive integer of at most 15 digits, else undefined.
function positive(v: string | null): number | undefined {
  if (v == null || !/^\d{1,15}$/.test(v)) return undefined
  const n = Number(v)
  return n > 0 ? n : undefined
}

function oneOf<T extends number>(v: string | null, allowed: readonly T[], def: T): T {
  const n = v != null && /^\d$/.test(v) ? Number(v) : NaN
  return (allowed as readonly number[]).includes(n) ? (n as T) : def
}

// parseSource reads /source's query: `id` (or `subModuleID`) names one
// sub-module, else `moduleID` a whole module; null when neither is a
// positive integer. Filters out of range fall back to their defaults, and
// a title is trimmed to 40 characters with control characters dropped.
export function parseSource(q: URLSearchParams): SourceQuery | null {
  const sub = positive(q.get('id')) ?? positive(q.get('subModuleID'))
  const mod = sub ? undefined : positive(q.get('moduleID'))
  if (!sub && !mod) return null
  // eslint-disable-next-line no-control-regex
  const title = q.get('title')?.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 40) || undefined
  return {
    ...(sub ? { subModuleID: sub } : { moduleID: mod }),
    title,
    sortType: oneOf(q.get('sortType'), [0, 1, 2] as const, 0),
    playTimeType: oneOf(q.get('playTimeType'), [0, 1, 2, 3] as const, 0),
    newsType: oneOf(q.get('newsType'), [0, 1] as const, 0),
  }
}

// withFilter returns the query with one filter set; a default value is
// removed instead, so the plain link stays plain.
export function withFilter(q: URLSearchParams, key: 'sortType' | 'playTimeType' | 'newsType', value: number): URLSearchParams {
  const next = new URLSearchParams(q)
  if (value === 0) next.delete(key)
  else next.set(key, String(value))
  return next
}

// sourceLink is where a module's or sub-module's "more" leads.
export function sourceLink(s: { subModuleID: number } | { moduleID: number }, sortType?: SortType): string {
  const q = new URLSearchParams('subModuleID' in s ? { id: String(s.subModuleID) } : { moduleID: String(s.moduleID) })
  if (sortType) q.set('sortType', String(sortType))
  return `/source?${q}`
}
