// GET /api/app/mine/uploads?kind=video: the videos I uploaded, for the
// videos tab of /myhome (with their processing state, which only I see);
// GET /api/app/user/videos: someone's published videos, for the videos tab
// of /usercenter/:uid.
import { useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { type Video } from '@/lib/video'
import { profileKeys } from '@/features/profile/keys'

export interface MyVideo {
  id: number
  kind: 'video'
  state: 'processing' | 'ready' | 'failed'
  thumb?: string
  poster?: string
  durationMs: number
  createdAt: string
}

export function useMyVideos(token: string | null) {
  return useInfiniteQuery({
    queryKey: profileKeys.uploads(token),
    queryFn: ({ pageParam }) => api.get<Page<MyVideo>>('/api/app/mine/uploads', { kind: 'video', pageNumber: pageParam, pageSize: 18 }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}

export function useUserVideos(uid: number) {
  return useInfiniteQuery({
    queryKey: profileKeys.videos(uid),
    queryFn: ({ pageParam }) => api.get<Page<Video>>('/api/app/user/videos', { uid, pageNumber: pageParam, pageSize: 18 }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: uid > 0,
  })
}
