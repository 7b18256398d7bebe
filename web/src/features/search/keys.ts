// The search pages' query keys. Results depend on who asks (what they may
// see), so they carry the token.
import type { SearchKind } from './types'
import type { SearchSort } from './query'

export const searchKeys = {
  all: ['search'] as const,
  results: (q: string, kind: SearchKind, sort: SearchSort, token: string | null) => [...searchKeys.all, 'results', q, kind, sort, token] as const,
  overview: (q: string, token: string | null) => [...searchKeys.all, 'overview', q, token] as const,
  suggest: (q: string) => [...searchKeys.all, 'suggest', q] as const,
  hot: () => [...searchKeys.all, 'hot'] as const,
}
