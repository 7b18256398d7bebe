// GET /api/app/vid/moduleVideo: the feed, newest first, a page at a time.
import { useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import type { FeedSource, ShortVideo } from '@/features/shortvideo/types'
import { shortKeys } from '@/features/shortvideo/keys'

export const FEED_PAGE_SIZE = 10

export function getFeed(src: FeedSource, pageNumber: number): Promise<Page<ShortVideo>> {
  return api.get<Page<ShortVideo>>(
    '/api/app/vid/moduleVideo',
    { ...src, sortType: 0, pageNumber, pageSize: FEED_PAGE_SIZE, playTimeType: 0, newsType: 0 },
    { public: true },
  )
}

export function useFeed(src: FeedSource | null) {
  return useInfiniteQuery({
    queryKey: src ? shortKeys.feed(src) : [...shortKeys.all, 'feed', 'none'],
    queryFn: ({ pageParam }) => getFeed(src!, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: src != null,
    staleTime: 2 * 60_000,
  })
}

