// GET /api/app/vid/source: the remote configuration, which also carries the
// platform gate.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { SourceConfig } from '@/stores/config'
import { configKeys } from '@/features/config/keys'

export function getSource(): Promise<SourceConfig> {
  return api.get<SourceConfig>('/api/app/vid/source', null, { public: true })
}

export function sourceQueryOptions() {
  return queryOptions({
    queryKey: configKeys.source(),
    queryFn: getSource,
    staleTime: 10 * 60_000,
  })
}

export function useSource() {
  return useQuery(sourceQueryOptions())
}
