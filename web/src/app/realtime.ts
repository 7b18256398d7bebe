// Keeps the realtime connection in step with the session and turns its
// events into refetches. Events are hints (delivery is at most once), so
// each one only invalidates queries; the API stays the source of truth.
import type { QueryClient } from '@tanstack/react-query'
import { getBaseURL } from '../lib/api'
import { browserDeps, RealtimeClient } from '../lib/realtime'
import { useUserStore } from '../stores/user'

export function startRealtime(queryClient: QueryClient): RealtimeClient | null {
  if (typeof WebSocket === 'undefined' || typeof location === 'undefined') return null
  const client = new RealtimeClient(browserDeps(getBaseURL))
  // The user info behind the Mine page; a reconnect or a server-side
  // resync may have missed a change, so they refetch it too.
  const refetchMine = () => void queryClient.invalidateQueries({ queryKey: ['mine'] })
  client.on('profile.changed', refetchMine)
  client.on('realtime.resync', refetchMine)
  client.onReconnect(refetchMine)
  client.setToken(useUserStore.getState().token)
  useUserStore.subscribe((s) => client.setToken(s.token))
  // Phones suspend background pages and their sockets: come back at once
  // rather than after the backoff.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') client.nudge()
  })
  addEventListener('online', () => client.nudge())
  return client
}
