// The favourites page's second tab: the caller's favourite galleries
// (GET /api/app/mine/collection?type=gallery), paged. The gallery pages
// (another feature) cannot mark this list stale when a favourite changes,
// so it refetches whenever the tab mounts.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import type { Gallery } from '@/lib/gallery'
import { videoKeys } from '@/features/video/keys'
import { MINE_PAGE_SIZE } from './mine-videos'

export function getMineGalleries(pageNumber: number): Promise<Page<Gallery>> {
  return api.get<Page<Gallery>>('/api/app/mine/collection', { type: 'gallery', pageNumber, pageSize: MINE_PAGE_SIZE })
}

export function useMineGalleries(token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: videoKeys.mineGalleries(token),
      queryFn: ({ pageParam }) => getMineGalleries(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
      staleTime: 0,
    }),
  )
}
