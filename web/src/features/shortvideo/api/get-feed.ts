// GET /api/app/vid/moduleVideo: the feed, newest first, a page at a time.
import { useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { FeedSource, Paged, ShortVideo } from '@/features/shortvideo/types'
import { shortKeys } from '@/features/shortvideo/keys'

export const FEED_PAGE_SIZE = 10

export function getFeed(src: FeedSource, pageNumber: number): Promise<Paged<ShortVideo>> {
  return api.get<Paged<ShortVideo>>(
    '/api/app/vid/moduleVideo',
    { ...src, sortType: 0, pageNumber, pageSize: FEED_PAGE_SIZE, playTimeType: 0, newsType: 0 },
    { silent: true },
  )
}

export function useFeed(src: FeedSource | null) {
  return useInfiniteQuery({
    queryKey: src ? shortKeys.feed(src) : [...shortKeys.all, 'feed', 'none'],
    queryFn: ({ pageParam }) => getFeed(src!, pageParam),
    initialPageParam: 1,
    getNextPageParam: (last: Paged<ShortVideo>) => (last.hasMore ? last.pageNumber + 1 : undefined),
    enabled: src != null,
    staleTime: 2 * 60_000,
  })
}

