// The search calls (docs/api.md, *Search*): results of one kind by page,
// the overview of every kind, suggestions while typing, hot words.
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { useUserStore } from '@/stores/user'
import { searchKeys } from '@/features/search/keys'
import type { SearchSort } from '@/features/search/query'
import { apiFilter, type Filter } from '@/features/search/filters'
import type { HotWord, Overview, Result, SearchKind } from '@/features/search/types'

export const SEARCH_PAGE_SIZE = 20

// resultParams are the query parameters of one page of results.
export function resultParams(q: string, kind: SearchKind, sort: SearchSort, filter: Filter, pageNumber: number) {
  return { q, kind, sort, ...apiFilter(filter), pageNumber, pageSize: SEARCH_PAGE_SIZE }
}

export function useResults(q: string, kind: SearchKind, sort: SearchSort, filter: Filter) {
  const token = useUserStore((s) => s.token)
  return useInfiniteQuery({
    queryKey: searchKeys.results(q, kind, sort, filter, token),
    queryFn: ({ pageParam }) => api.get<Page<Result>>('/api/app/search', resultParams(q, kind, sort, filter, pageParam)),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: q !== '',
    staleTime: 60_000,
  })
}

export function useOverview(q: string) {
  const token = useUserStore((s) => s.token)
  return useQuery({
    queryKey: searchKeys.overview(q, token),
    queryFn: () => api.get<Overview>('/api/app/search/overview', { q }),
    enabled: q !== '',
    staleTime: 60_000,
  })
}

// useSuggest asks for the words starting with q. The query's signal is
// handed to the request, so a suggestion the user has typed past is
// cancelled on the wire, not just ignored.
export function useSuggest(q: string) {
  return useQuery({
    queryKey: searchKeys.suggest(q),
    queryFn: ({ signal }) => api.get<{ list: string[] | null }>('/api/app/search/suggest', { q }, { signal }),
    enabled: q !== '',
    staleTime: 60_000,
    retry: false,
  })
}

export function useHot() {
  return useQuery({
    queryKey: searchKeys.hot(),
    queryFn: () => api.get<{ list: HotWord[] | null }>('/api/app/search/hot'),
    staleTime: 5 * 60_000,
  })
}
