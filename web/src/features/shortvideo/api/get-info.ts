// GET /api/app/vid/info?id=: a clip's access decision and signed playback
// URL. Asked only for mounted slides; the signed URL lives about 4 h, so a
// cached answer stays usable for the session's scale of minutes.
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { VideoInfo } from '@/features/shortvideo/types'
import { shortKeys } from '@/features/shortvideo/keys'

export function useVideoInfo(id: number) {
  return useQuery({
    queryKey: shortKeys.info(id),
    queryFn: () => api.get<VideoInfo>('/api/app/vid/info', { id }),
    staleTime: 10 * 60_000,
  })
}
