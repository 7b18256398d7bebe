// GET /api/app/ping/domain/h5: the API, image and video lines available.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Domains } from '@/stores/config'
import { configKeys } from '@/features/config/keys'

export function getDomains(): Promise<Domains> {
  return api.get<Domains>('/api/app/ping/domain/h5', null, { public: true })
}

export function domainsQueryOptions() {
  return queryOptions({ queryKey: configKeys.domains(), queryFn: getDomains, staleTime: 30 * 60_000 })
}

export function useDomains() {
  return useQuery(domainsQueryOptions())
}
