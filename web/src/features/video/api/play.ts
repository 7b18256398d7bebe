// POST /api/app/vid/play: counts one play and, for a signed-in caller,
// records the video in their history (so the history list is now stale).
import { api } from '@/lib/api'

export function countPlay(id: number): Promise<{ playCount: number }> {
  return api.post<{ playCount: number }>('/api/app/vid/play', { id })
}
