// GET /api/app/mine/notices?category=&pageNumber&pageSize and
// POST /api/app/mine/notices/read {category}: one category of notices,
// newest first, and marking them read.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { messageKeys, type NoticeCategory } from '@/features/messages/keys'
import type { Notice } from '@/features/messages/types'

export const PAGE_SIZE = 20

export function getNotices(category: NoticeCategory, pageNumber: number): Promise<Page<Notice>> {
  return api.get<Page<Notice>>('/api/app/mine/notices', { category, pageNumber, pageSize: PAGE_SIZE })
}

export function useNotices(category: NoticeCategory, token: string | null, enabled = true) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: messageKeys.notices(category, token),
      queryFn: ({ pageParam }) => getNotices(category, pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null && enabled,
    }),
  )
}

export function readNotices(category: NoticeCategory): Promise<{ marked: number }> {
  return api.post<{ marked: number }>('/api/app/mine/notices/read', { category })
}
