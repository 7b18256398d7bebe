// GET /api/app/modules/list?moduleType=4: the short-video modules and
// their sub-modules.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { ShortModule } from '@/features/shortvideo/types'
import { shortKeys } from '@/features/shortvideo/keys'

export function shortModulesQueryOptions() {
  return queryOptions({
    queryKey: shortKeys.modules(),
    queryFn: () => api.get<ShortModule[]>('/api/app/modules/list', { moduleType: 4 }, { public: true }),
    staleTime: 5 * 60_000,
  })
}

export function useShortModules() {
  return useQuery(shortModulesQueryOptions())
}
