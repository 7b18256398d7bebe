// Buying things and reading the caller's money, for the code outside the
// wallet feature that needs it: the paywall (videos and galleries), the
// wallet card on Mine, the app shell that refetches after money moved.
// docs/api.md, *Wallet*. Coins and cents are integers.
import { api } from './api'
import { WALLET_SUMMARY_PATH, type WalletSummary } from './wallet'
import type { CouponPosition } from './user'
import type { Video } from './video'

export function getWalletSummary(): Promise<WalletSummary> {
  return api.get<WalletSummary>(WALLET_SUMMARY_PATH)
}

// Purchase is one bought video (vid/buy, mine/buyVid).
export interface Purchase {
  id: number
  videoID: number
  price: number // coins paid; 0 with a coupon
  paidWith: 'coins' | 'coupon'
  createdAt: string
  video: Video | null // null while the video is not published
}

export interface BuyResult {
  purchase: Purchase
  wallet: WalletSummary
}

export type BuyTarget = { kind: 'video' | 'gallery' | 'post'; id: number }

const BUY_PATHS: Record<BuyTarget['kind'], string> = {
  video: '/api/app/vid/buy',
  gallery: '/api/app/gallery/buy',
  post: '/api/app/community/post/buy',
}

// buy sends one purchase. The caller shows its own errors (insufficient
// coins leads to top-up, not to a toast). Coupons buy videos only, so a
// gallery's body has no useCoupon.
export function buy(target: BuyTarget, useCoupon: boolean, idempotencyKey: string): Promise<BuyResult> {
  // A community post's buy call names its key "key" (docs/api.md, *Community*).
  const body =
    target.kind === 'video'
      ? { id: target.id, useCoupon, idempotencyKey }
      : target.kind === 'post'
        ? { id: target.id, key: idempotencyKey }
        : { id: target.id, idempotencyKey }
  return api.post<BuyResult>(BUY_PATHS[target.kind], body)
}

// The coupon backpack (GET /api/app/backpack): always the three groups.
export interface BackpackCoupon {
  id: number
  name: string
  count: number
  expiresAt: string | null
}

export interface BackpackGroup {
  position: CouponPosition
  coupons: BackpackCoupon[]
}

export function getBackpack(): Promise<BackpackGroup[]> {
  return api.get<BackpackGroup[]>('/api/app/backpack')
}

// unusedCoupons counts the coupons a purchase may use now.
export function unusedCoupons(groups: BackpackGroup[] | undefined): number {
  let n = 0
  for (const g of groups ?? []) {
    if (g.position !== 'unused') continue
    for (const c of g.coupons) if (Number.isInteger(c.count) && c.count > 0) n += c.count
  }
  return n
}

// Query keys of the money data read outside the wallet feature; personal,
// so they carry the token.
export const purchaseKeys = {
  all: ['purchase'] as const,
  backpack: (token: string | null) => [...purchaseKeys.all, 'backpack', token] as const,
  bought: (token: string | null) => [...purchaseKeys.all, 'bought', token] as const,
}

// isInsufficient: the server said the coins are not enough (409 "金币余额不足").
export function isInsufficient(err: unknown): boolean {
  const e = err as { status?: number; code?: number; tip?: string } | null
  return !!e && (e.status === 409 || e.code === 409) && typeof e.tip === 'string' && e.tip.includes('余额不足')
}

// isRetryable: the request may not have reached the server or the server
// did not decide (network, timeout, 5xx other than 503's fail-closed
// limiter, which is decided too but harmless to retry). Only then is the
// same idempotency key sent again; a 4xx is an answer.
export function isRetryable(err: unknown): boolean {
  const e = err as { kind?: string; status?: number } | null
  if (!e) return false
  if (e.kind === 'network' || e.kind === 'timeout') return true
  return typeof e.status === 'number' && e.status >= 500
}

// Intent keeps the idempotency key of one tap while it is retried: the same
// parameters get the same key until the server has answered (settle), so a
// retry after a lost answer cannot buy twice; other parameters are another
// intent and get a new key (the server would refuse the old key with them).
export class Intent {
  private key: string | null = null
  private params = ''
  constructor(private readonly make: () => string) {}

  keyFor(params: unknown): string {
    const p = JSON.stringify(params)
    if (this.key == null || p !== this.params) {
      this.key = this.make()
      this.params = p
    }
    return this.key
  }

  // settle ends the intent after an answer (success or a refusal); the
  // next tap is a new intent.
  settle(): void {
    this.key = null
    this.params = ''
  }
}

// Money moved (a purchase here, or wallet.changed from the server): the app
// shell refetches what depends on balances, VIP and access.
const listeners = new Set<(reason: string) => void>()

export function onMoneyMoved(fn: (reason: string) => void): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}

export function moneyMoved(reason: string): void {
  for (const fn of [...listeners]) fn(reason)
}

// topUpPath is the top-up page that brings the user back to `from` (a path
// of this app) once paid.
export function topUpPath(from?: string): string {
  return from ? `/mine/usercoinchongzhi?from=${encodeURIComponent(from)}` : '/mine/usercoinchongzhi'
}

// safeReturn keeps a return path only when it is a path of this app
// ("/detail/3?x"), never another origin ("//evil", "https://...").
export function safeReturn(from: string | null | undefined, fallback = '/mine'): string {
  if (!from || !from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return fallback
  return from
}
