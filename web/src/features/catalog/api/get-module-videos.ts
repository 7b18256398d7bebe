// GET /api/app/vid/moduleVideo: one sub-module's videos, sorted, a page at a
// time.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { type Video } from '@/features/catalog/types'
import { catalogKeys } from '@/features/catalog/keys'

// sortType: 0 newest, 1 most played, 2 most liked.
export type SortType = 0 | 1 | 2
export const VIDEOS_PAGE_SIZE = 20

export interface ModuleVideosParams {
  subModuleID: number
  sortType: SortType
}

export function getModuleVideos(p: ModuleVideosParams, pageNumber: number): Promise<Page<Video>> {
  return api.get<Page<Video>>(
    '/api/app/vid/moduleVideo',
    { subModuleID: p.subModuleID, sortType: p.sortType, pageNumber, pageSize: VIDEOS_PAGE_SIZE, playTimeType: 0, newsType: 0 },
    { public: true },
  )
}

export function moduleVideosQueryOptions(p: ModuleVideosParams) {
  return infiniteQueryOptions({
    queryKey: catalogKeys.videos(p.subModuleID, p.sortType),
    queryFn: ({ pageParam }) => getModuleVideos(p, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    staleTime: 2 * 60_000,
  })
}

export function useModuleVideos(p: ModuleVideosParams) {
  return useInfiniteQuery(moduleVideosQueryOptions(p))
}

// SourceVideosParams: /source's listing, one scope (a sub-module or a whole
// module) with every filter moduleVideo takes.
export interface SourceVideosParams {
  subModuleID?: number
  moduleID?: number
  sortType: SortType
  playTimeType: number
  newsType: number
}

export function sourceVideosQueryOptions(p: SourceVideosParams) {
  return infiniteQueryOptions({
    queryKey: catalogKeys.source(p),
    queryFn: ({ pageParam }) =>
      api.get<Page<Video>>(
        '/api/app/vid/moduleVideo',
        { ...p, pageNumber: pageParam, pageSize: VIDEOS_PAGE_SIZE },
      ),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    staleTime: 2 * 60_000,
  })
}

export function useSourceVideos(p: SourceVideosParams) {
  return useInfiniteQuery(sourceVideosQueryOptions(p))
}
