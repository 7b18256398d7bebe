// GET /api/app/modules/announce: the announcements currently shown.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Announcement } from '@/features/catalog/types'
import { catalogKeys } from '@/features/catalog/keys'

export function getAnnouncements(): Promise<Announcement[]> {
  return api.get<Announcement[]>('/api/app/modules/announce', null, { public: true })
}

export function announcementsQueryOptions() {
  return queryOptions({
    queryKey: catalogKeys.announcements(),
    queryFn: getAnnouncements,
    staleTime: 5 * 60_000,
  })
}

export function useAnnouncements() {
  return useQuery(announcementsQueryOptions())
}
