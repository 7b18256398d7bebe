// The search pages' query keys. Results depend on who asks (what they may
// see), so they carry the token.
import type { SearchKind } from './types'
import type { SearchSort } from './query'
import type { Filter } from './filters'

export const searchKeys = {
  all: ['search'] as const,
  // The filter's parts are in the key, so a filtered page is never served
  // from (or mixed into) the unfiltered one.
  results: (q: string, kind: SearchKind, sort: SearchSort, filter: Filter, token: string | null) =>
    [...searchKeys.all, 'results', q, kind, sort, filter.vipLevel, filter.moduleID, token] as const,
  overview: (q: string, token: string | null) => [...searchKeys.all, 'overview', q, token] as const,
  suggest: (q: string) => [...searchKeys.all, 'suggest', q] as const,
  hot: () => [...searchKeys.all, 'hot'] as const,
}
