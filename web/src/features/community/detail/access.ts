// What a locked post's paywall says: the reason the server gave, in words.
import { t } from '@/i18n'
import type { PaywallInfo } from '@/components/Paywall'
import type { PostAccess } from '@/features/community/detail/types'

export function paywallOf(a: PostAccess): PaywallInfo | null {
  if (a.allowed) return null
  let tip
  switch (a.reason) {
    case 'login':
      tip = t('post.tip.login')
      break
    case 'need_svip':
      tip = t('post.tip.needSvip')
      break
    case 'need_coins':
      tip = t('post.tip.needCoins', { n: a.unlock.coins })
      break
    default:
      tip = t('post.tip.needVip')
  }
  return { reason: a.reason, needVipLevel: a.unlock.needVipLevel, coins: a.unlock.coins, tip }
}

// canTakePart: only registered users like and comment (a guest has a token
// but no account).
export function canTakePart(token: string | null, isGuest: boolean | undefined): boolean {
  return token != null && isGuest === false
}

// clientID makes the idempotency id of one comment the composer sends; a
// retry of the same text resends it, so a lost answer never posts twice.
export function newClientID(): string {
  const r = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random()}`
  return `c-${r}`.slice(0, 64)
}
