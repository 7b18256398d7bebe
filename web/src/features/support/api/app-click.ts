// POST /api/app/apps/click {id}: counts a tap on an application centre
// entry. Failures are ignored: counting must never stand in the way.
import { api } from '@/lib/api'

export function postAppClick(id: number): void {
  if (!(id > 0)) return
  api.post('/api/app/apps/click', { id }).catch(() => {})
}
