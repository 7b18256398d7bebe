// POST /api/app/ads/click {id}: counts a click on an ad. Fire and forget:
// a failure is not the user's problem and never stops the link opening.
import { api } from '@/lib/api'

export function sendAdClick(id: number): void {
  api.post('/api/app/ads/click', { id }).catch(() => undefined)
}
