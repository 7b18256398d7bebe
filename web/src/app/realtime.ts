// Keeps the realtime connection in step with the session and turns its
// events into refetches. Events are hints (delivery is at most once), so
// each one only invalidates queries; the API stays the source of truth.
import type { QueryClient } from '@tanstack/react-query'
import { getBaseURL } from '@/lib/api'
import { browserDeps, RealtimeClient } from '@/lib/realtime'
import { getToken } from '@/lib/storage'
import { accountKeys } from '@/features/account/keys'
import { withdrawKeys } from '@/features/withdraw/keys'
import { walletKeys } from '@/lib/wallet'
import { useUserStore } from '@/stores/user'

// Events come in bursts (a registration sends two) and may race the other
// tab that caused them storing its new token: refetching a moment later
// does one request, with the token that tab stored.
const REFETCH_DELAY_MS = 500

export function startRealtime(queryClient: QueryClient): RealtimeClient | null {
  if (typeof WebSocket === 'undefined' || typeof location === 'undefined') return null
  const client = new RealtimeClient(browserDeps(getBaseURL))
  let timer: ReturnType<typeof setTimeout> | null = null
  // The user info behind the Mine page; a reconnect or a server-side
  // resync may have missed a change, so they refetch it too.
  const refetchMine = () => {
    if (timer) return
    timer = setTimeout(() => {
      timer = null
      void queryClient.invalidateQueries({ queryKey: accountKeys.all })
    }, REFETCH_DELAY_MS)
  }
  client.on('profile.changed', refetchMine)
  client.on('realtime.resync', refetchMine)
  client.onReconnect(refetchMine)
  // Money moved (a withdrawal decided, income credited, an exchange done
  // elsewhere): balances, withdrawals and records refetch.
  const refetchMoney = () => {
    void queryClient.invalidateQueries({ queryKey: walletKeys.all })
    void queryClient.invalidateQueries({ queryKey: withdrawKeys.all })
  }
  client.on('wallet.changed', refetchMoney)
  client.on('realtime.resync', refetchMoney)
  client.onReconnect(refetchMoney)
  // This socket's session is over. If another tab has stored a successor
  // (it registered this guest), follow it; otherwise the next API call's
  // 401 signs this tab out as usual.
  client.onSessionEnded(() => {
    const t = getToken()
    if (t) client.setToken(t)
  })
  client.setToken(useUserStore.getState().token)
  // Only a change of token counts: the store also changes when the user
  // info is refreshed, and by then the client may be following a newer
  // token (onSessionEnded) than the one this tab's store still holds.
  useUserStore.subscribe((s, prev) => {
    if (s.token !== prev.token) client.setToken(s.token)
  })
  // Phones suspend background pages and their sockets: come back at once
  // rather than after the backoff.
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') client.nudge()
  })
  addEventListener('online', () => client.nudge())
  return client
}
