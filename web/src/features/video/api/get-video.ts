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

// ready: false while the guest sign-in is under way, so the detail is
// asked for once, with the token, and not first anonymously (a key without
// the token) and again with it.
export function useVideo(id: number, token: string | null, ready = true) {
  const options = videoQueryOptions(id, token)
  return useQuery({ ...options, enabled: options.enabled && ready })
}
