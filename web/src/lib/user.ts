// Rules about the signed-in user (spec §4, §5, §6). All take `now` so tests
// and callers decide the clock; times arrive as RFC 3339 strings or null.

export type CouponPosition = 'unused' | 'used' | 'expired'

export interface Coupon {
  id: number
  name: string
  count: number
  expiresAt?: string | null // the soonest expiry among them (docs/api.md, backpack)
}

export interface CouponGroup {
  position: CouponPosition
  coupons: Coupon[]
}

// UserInfo is GET /api/app/mine/info for the caller (api-contract).
export interface UserInfo {
  uid: number
  name: string
  portrait: string
  account: string | null // null for guests
  isGuest: boolean
  points: number
  isVip: boolean
  vipLevel: 0 | 1 | 2
  vipExpireDate: string | null // the running tier's expiry
  // Each tier's own expiry (docs/api.md, *VIP*); optional so stored infos
  // from before the wallet still read.
  vipTiers?: { vip: string | null; svip: string | null }
  txDiscount: number | null // null when unset; the client defaults to 20
  newGoldVideoCoupon: CouponGroup[]
  goldVideoFreeExpire: string | null
  videoFreeExpiration: string | null
  createdAt: string
  // An unread notice or message exists (docs/api.md, *Messages*); only
  // GET mine/info fills it, so it is optional.
  msgHasNew?: boolean
  // Phone and password (docs/api.md, *Phone, password and devices*): the
  // bound mobile masked as 138****0000 ('' when none) and whether a
  // password is set. Optional so infos stored before them still read.
  mobile?: string
  hasPassword?: boolean
}

// PublicProfile is GET /api/app/mine/info?uid=N.
export interface PublicProfile {
  uid: number
  name: string
  portrait: string
  vipLevel: 0 | 1 | 2
  createdAt: string
}

type Maybe<T> = T | null | undefined
type Clock = Date | number

export const DEFAULT_TX_DISCOUNT = 20
export const NEW_USER_WINDOW_MS = 24 * 60 * 60 * 1000

function ms(now: Clock): number {
  return typeof now === 'number' ? now : now.getTime()
}

// timeOf parses an API time; anything unparsable is NaN, which every
// comparison below treats as "not set".
function timeOf(v: Maybe<string>): number {
  return v ? Date.parse(v) : NaN
}

function inFuture(v: Maybe<string>, now: Clock): boolean {
  return timeOf(v) > ms(now)
}

function tierActive(u: Maybe<Pick<UserInfo, 'isVip' | 'vipLevel' | 'vipExpireDate'>>, level: 1 | 2, now: Clock): boolean {
  return !!u && u.isVip === true && u.vipLevel === level && inFuture(u.vipExpireDate, now)
}

// isVip: the ordinary VIP tier (level 1) is active. Spec §4 keeps the tiers
// apart: a super VIP is not isVip. Use vipTier / hasVipAccess to ask "is this
// user any kind of member".
export function isVip(u: Maybe<Pick<UserInfo, 'isVip' | 'vipLevel' | 'vipExpireDate'>>, now: Clock = Date.now()): boolean {
  return tierActive(u, 1, now)
}

// isSuperVip: the super VIP tier (level 2) is active.
export function isSuperVip(u: Maybe<Pick<UserInfo, 'isVip' | 'vipLevel' | 'vipExpireDate'>>, now: Clock = Date.now()): boolean {
  return tierActive(u, 2, now)
}

// vipTier is the active tier: 0 none, 1 VIP, 2 super VIP.
export function vipTier(u: Maybe<Pick<UserInfo, 'isVip' | 'vipLevel' | 'vipExpireDate'>>, now: Clock = Date.now()): 0 | 1 | 2 {
  return isSuperVip(u, now) ? 2 : isVip(u, now) ? 1 : 0
}

// hasVipAccess: either tier is active (a super VIP may watch VIP videos).
export function hasVipAccess(u: Maybe<Pick<UserInfo, 'isVip' | 'vipLevel' | 'vipExpireDate'>>, now: Clock = Date.now()): boolean {
  return vipTier(u, now) > 0
}

// hasFreeAccess: a free-viewing window (gold video or video) is open.
export function hasFreeAccess(
  u: Maybe<Pick<UserInfo, 'goldVideoFreeExpire' | 'videoFreeExpiration'>>,
  now: Clock = Date.now(),
): boolean {
  return !!u && (inFuture(u.goldVideoFreeExpire, now) || inFuture(u.videoFreeExpiration, now))
}

// isNewUser: the account is less than 24 hours old. A createdAt slightly in
// the future (client clock behind the server) still counts as new.
export function isNewUser(u: Maybe<Pick<UserInfo, 'createdAt'>>, now: Clock = Date.now()): boolean {
  const created = timeOf(u?.createdAt)
  return Number.isFinite(created) && ms(now) - created < NEW_USER_WINDOW_MS
}

// shouldSaveUser: only a real account (uid > 0) is kept in the store.
export function shouldSaveUser(u: Maybe<Partial<Pick<UserInfo, 'uid'>>>): boolean {
  return !!u && typeof u.uid === 'number' && Number.isFinite(u.uid) && u.uid > 0
}

// couponTotal counts the unused coupons (spec §6); used and expired groups
// do not count, nor do malformed counts.
export function couponTotal(u: Maybe<Partial<Pick<UserInfo, 'newGoldVideoCoupon'>>>): number {
  let total = 0
  for (const g of u?.newGoldVideoCoupon ?? []) {
    if (g?.position !== 'unused') continue
    for (const c of g.coupons ?? []) {
      if (typeof c?.count === 'number' && Number.isFinite(c.count) && c.count > 0) total += c.count
    }
  }
  return total
}

// txDiscount is the withdrawal discount in percent; 20 when the server
// has none (spec §6, §9). 0 is a real value, not a missing one.
export function txDiscount(u: Maybe<Partial<Pick<UserInfo, 'txDiscount'>>>): number {
  const d = u?.txDiscount
  return typeof d === 'number' && Number.isFinite(d) ? d : DEFAULT_TX_DISCOUNT
}

// GUEST_NAME_PREFIX starts the name the server gives a guest (游客 and a
// number). Registering keeps the guest's row, and older servers kept that
// name too.
export const GUEST_NAME_PREFIX = '游客'

// displayName is the name to show: a registered user whose name is still
// the guest one is shown by their account instead, so nobody who signed up
// is called a guest.
export function displayName(u: Pick<UserInfo, 'name' | 'account' | 'isGuest'>): string {
  const name = u.name?.trim() ?? ''
  if (!u.isGuest && u.account && (name === '' || name.startsWith(GUEST_NAME_PREFIX))) return u.account
  return name
}
