// GET /api/app/tag/conf/list: the tag catalogue.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Tag } from '@/stores/config'
import { configKeys } from '@/features/config/keys'

export function getTags(): Promise<Tag[]> {
  return api.get<Tag[]>('/api/app/tag/conf/list', null, { public: true })
}

export function tagsQueryOptions() {
  return queryOptions({ queryKey: configKeys.tags(), queryFn: getTags, staleTime: 30 * 60_000 })
}

export function useTags() {
  return useQuery(tagsQueryOptions())
}
