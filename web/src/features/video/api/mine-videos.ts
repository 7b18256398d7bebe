// The caller's own video lists: GET /api/app/mine/like/infoList (liked),
// mine/collection (favourites) and mine/history (browse history), paged.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { videoKeys, type MineListKind } from '@/features/video/keys'
import type { MineVideo } from '@/features/video/types'

export const MINE_PAGE_SIZE = 20

const PATHS: Record<MineListKind, string> = {
  like: '/api/app/mine/like/infoList',
  fav: '/api/app/mine/collection',
  history: '/api/app/mine/history',
}

export function getMineVideos(kind: MineListKind, pageNumber: number): Promise<Page<MineVideo>> {
  return api.get<Page<MineVideo>>(PATHS[kind], { pageNumber, pageSize: MINE_PAGE_SIZE })
}

export function mineVideosQueryOptions(kind: MineListKind, token: string | null) {
  return infiniteQueryOptions({
    queryKey: videoKeys.mine(kind, token),
    queryFn: ({ pageParam }) => getMineVideos(kind, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}

export function useMineVideos(kind: MineListKind, token: string | null) {
  return useInfiniteQuery(mineVideosQueryOptions(kind, token))
}
