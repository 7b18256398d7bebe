// GET /api/app/vid/info: one video with the caller's like and favourite
// state, access, paywall, playback and related videos.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api'
import { videoKeys } from '@/features/video/keys'
import type { VideoDetail } from '@/features/video/types'

export function getVideo(id: number): Promise<VideoDetail> {
  return api.get<VideoDetail>('/api/app/vid/info', { id })
}

// isNotFound: the video does not exist or is unpublished; retrying cannot help.
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404
}

export function videoQueryOptions(id: number, token: string | null) {
  return queryOptions({
    queryKey: videoKeys.detail(id, token),
    queryFn: () => getVideo(id),
    enabled: Number.isSafeInteger(id) && id > 0,
    staleTime: 60_000,
  })
}

export function useVideo(id: number, token: string | null) {
  return useQuery(videoQueryOptions(id, token))
}
