// GET /api/app/vid/uploadStatic?id=N (one of the caller's uploads, polled
// while it processes) and GET /api/app/mine/uploads (the caller's uploads,
// newest first).
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { uploadKeys } from '@/features/upload/keys'
import { POLL_MS, pollInterval } from '@/features/upload/rules'
import type { Asset } from '@/features/upload/types'

export function useAsset(id: number | null, token: string | null) {
  return useQuery({
    queryKey: uploadKeys.asset(id ?? 0, token),
    queryFn: () => api.get<Asset>('/api/app/vid/uploadStatic', { id }),
    enabled: id != null && token != null,
    refetchInterval: (q) => pollInterval(q.state.data?.state),
  })
}

export const MINE_PAGE_SIZE = 10

export function useMyUploads(token: string | null) {
  return useInfiniteQuery({
    queryKey: uploadKeys.mine(token),
    queryFn: ({ pageParam }) =>
      api.get<Page<Asset>>('/api/app/mine/uploads', { kind: 'video', pageNumber: pageParam, pageSize: MINE_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
    // While one of the listed uploads processes, the list follows it.
    refetchInterval: (q) => (q.state.data?.pages.some((p) => p.list.some((a) => a.state === 'processing')) ? POLL_MS : false),
  })
}
