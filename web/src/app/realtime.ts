// Keeps the realtime connection in step with the session and turns its
// events into refetches. Events are hints (delivery is at most once), so
// each one only invalidates queries; the API stays the source of truth.
import type { QueryClient } from '@tanstack/react-query'
import { getBaseURL } from '@/lib/api'
import { browserDeps, RealtimeClient } from '@/lib/realtime'
import { getToken } from '@/lib/storage'
import { moneyMoved, onMoneyMoved, purchaseKeys } from '@/lib/purchase'
import { walletKeys } from '@/lib/wallet'
import { peopleKeys } from '@/lib/people'
import { inboxKeys, setLive } from '@/lib/inbox'
import { accountKeys } from '@/features/account/keys'
import { galleryKeys } from '@/features/gallery/keys'
import { inviteKeys } from '@/features/invite/keys'
import { messageKeys } from '@/features/messages/keys'
import { profileKeys } from '@/features/profile/keys'
import { videoKeys } from '@/features/video/keys'
import { supportKeys } from '@/features/support/keys'
import { payPageKeys } from '@/features/wallet/keys'
import { withdrawKeys } from '@/features/withdraw/keys'
import { feedKeys } from '@/features/community/keys'
import { useUserStore } from '@/stores/user'

// Events come in bursts (a registration sends two) and may race the other
// tab that caused them storing its new token: refetching a moment later
// does one request, with the token that tab stored.
const REFETCH_DELAY_MS = 500

// refetchMoney marks stale everything that depends on balances, VIP tiers
// and purchases: the wallet, the user info, the VIP and order pages, the
// withdrawals and records, the details whose access may have changed, and
// the earnings (a friend's payment makes commission, a sale a creator
// earning, settlement turns them into income). Only what is on screen
// refetches now; the rest on its next visit.
export function refetchMoney(queryClient: QueryClient): void {
  for (const queryKey of [walletKeys.all, accountKeys.all, purchaseKeys.all, payPageKeys.all, videoKeys.detailAll(), galleryKeys.all, withdrawKeys.all, inviteKeys.earnAll(), profileKeys.earningsAll()]) {
    void queryClient.invalidateQueries({ queryKey })
  }
}

// refetchForNotice: a notice ({category, kind}) is news for the pages it
// tells of. An operator's reply to feedback or decision on a creator or
// promoter application refetches those pages (an approved creator has
// earnings to show; an approved promoter other rates); a new follower the
// counts and the follow lists. Other notices leave them alone (the inbox
// refetches anyway).
export function refetchForNotice(queryClient: QueryClient, data: unknown): void {
  const kind = (data as { kind?: unknown } | null)?.kind
  const stale = (queryKey: readonly unknown[]) => void queryClient.invalidateQueries({ queryKey })
  if (kind === 'feedback_reply') stale(supportKeys.feedbackAll())
  if (kind === 'settled') {
    stale(supportKeys.settledAll())
    stale(profileKeys.earningsAll())
  }
  if (kind === 'promoter') stale(inviteKeys.earnAll())
  if (kind === 'follow') {
    stale(peopleKeys.all)
    stale(profileKeys.all)
  }
}

export function startRealtime(queryClient: QueryClient): RealtimeClient | null {
  // A purchase in this tab and wallet.changed from the server (another tab,
  // a paid callback, an operator) are the same news.
  onMoneyMoved(() => refetchMoney(queryClient))
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
  client.on('notice.new', (ev) => refetchForNotice(queryClient, ev.data))
  // A profile edit (here or on another device) shows on the profile pages.
  client.on('profile.changed', () => {
    for (const queryKey of [peopleKeys.all, profileKeys.all]) void queryClient.invalidateQueries({ queryKey })
  })
  // A post of mine was published, rejected or removed: the lists that show
  // it (my own with its state) refetch.
  client.on('post.changed', () => void queryClient.invalidateQueries({ queryKey: feedKeys.postsAll() }))
  // Messages and notices: the badges, the message centre and any open
  // chat refetch; the user info too, for its msgHasNew.
  const refetchInbox = () => {
    for (const queryKey of [inboxKeys.all, messageKeys.all]) void queryClient.invalidateQueries({ queryKey })
    refetchMine()
  }
  for (const type of ['message.new', 'message.read', 'notice.new', 'realtime.resync']) client.on(type, refetchInbox)
  client.onReconnect(refetchInbox)
  // While no socket is open, the inbox pages poll instead (lib/inbox.ts).
  client.onState(setLive)
  client.on('wallet.changed', () => moneyMoved('wallet.changed'))
  client.on('realtime.resync', () => moneyMoved('resync'))
  client.onReconnect(() => moneyMoved('reconnect'))
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
