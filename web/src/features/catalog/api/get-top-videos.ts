// GET /api/app/vid/moduleVideo?moduleID=&sortType=1: a module's most played
// videos, for discover's picks.
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Page } from '@/lib/page'
import type { Video } from '@/features/catalog/types'
import { catalogKeys } from '@/features/catalog/keys'

export const TOP_VIDEOS = 4

export function useTopVideos(moduleID: number) {
  return useQuery({
    queryKey: catalogKeys.top(moduleID),
    queryFn: () =>
      api.get<Page<Video>>(
        '/api/app/vid/moduleVideo',
        { moduleID, sortType: 1, pageNumber: 1, pageSize: TOP_VIDEOS, playTimeType: 0, newsType: 0 },
      ),
    staleTime: 5 * 60_000,
  })
}
