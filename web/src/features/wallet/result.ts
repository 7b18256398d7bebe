// Pure rules of the paying pages: what an order's state means to the
// result page, how often it is polled, the countdown's clock, dates.

import { hasMessage, t } from '@/i18n'
import type { Order, OrderStatus, PayType } from '@/features/wallet/types'

export type Outcome = 'waiting' | 'success' | 'failed'

export function outcomeOf(status: OrderStatus | undefined | null): Outcome {
  if (status === 'paid') return 'success'
  if (status === 'cancelled' || status === 'expired' || status === 'refunded') return 'failed'
  return 'waiting'
}

// pollDelay is the wait before poll n (0-based): 1 s for the first ten
// (a sandbox or card payment usually lands in seconds), then up to 5 s.
export function pollDelay(n: number): number {
  if (n < 10) return 1000
  return Math.min(5000, 1000 + (n - 9) * 500)
}

// clock shows seconds as HH:MM:SS (the new-user countdown); negative or
// broken values show 00:00:00.
export function clock(seconds: number): string {
  const s = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0
  const p = (n: number) => String(n).padStart(2, '0')
  return `${p(Math.floor(s / 3600))}:${p(Math.floor((s % 3600) / 60))}:${p(s % 60)}`
}

// secondsLeftAt counts a server's secondsLeft down on the client's clock
// from when it arrived, never below zero.
export function secondsLeftAt(secondsLeft: number, receivedAt: number, now: number): number {
  return Math.max(0, Math.ceil(secondsLeft - (now - receivedAt) / 1000))
}

// shanghaiDate shows an API time as a calendar date in Asia/Shanghai (UTC+8
// all year), as memberships are sold; '' when unset or unreadable.
export function shanghaiDate(iso: string | null | undefined): string {
  const ms = iso ? Date.parse(iso) : NaN
  return Number.isFinite(ms) ? new Date(ms + 8 * 3600_000).toISOString().slice(0, 10) : ''
}

// tierActive: a tier's expiry is still ahead.
export function tierActive(iso: string | null | undefined, now: number): boolean {
  const ms = iso ? Date.parse(iso) : NaN
  return Number.isFinite(ms) && ms > now
}

// discountPercent is how much a price is below the original, rounded down
// (0 when there is no original or it is not higher).
export function discountPercent(price: number, original: number): number {
  if (!(original > price) || price < 0) return 0
  return Math.floor(((original - price) * 100) / original)
}

// The page a payment started from, per order, for the result page's back
// button (the provider's page sits between them in the history). Session
// storage: it concerns this tab only; a missing entry goes to fallback.
const RETURN_PREFIX = 'prima.payReturn.'

export function rememberReturn(orderNo: string, from: string): void {
  try {
    sessionStorage.setItem(RETURN_PREFIX + orderNo, from)
  } catch {
    // private mode or full: the result page falls back
  }
}

export function recallReturn(orderNo: string): string | null {
  try {
    return sessionStorage.getItem(RETURN_PREFIX + orderNo)
  } catch {
    return null
  }
}

// payTypeName is a pay type as the payer reads it: the catalogue's words
// for the providers the app knows (so English shows English), else the
// server's zh-CN name.
export function payTypeName(p: PayType): string {
  const key = `payType.${p.code}`
  return hasMessage(key) ? t(key) : p.name
}

// resultPath is the result page of an order (it polls the order's state;
// only the provider's notice, checked by the server, pays it).
export function resultPath(orderNo: string): string {
  return `/mine/usercoinchongzhi?orderNo=${encodeURIComponent(orderNo)}`
}

// What topay may send the payer to: a page of this server (the sandbox's),
// a provider's web page, a payment app.
const PAY_URL = /^(\/(?![/\\])|https?:\/\/|(alipays?|weixin|mqqapi|mqqwallet):)/i

// afterTopay says where the payer goes once topay answered: the provider's
// page for a pending order, else (a replayed request for an order paid,
// closed or without a page) the result page, which shows its state.
export function afterTopay(order: Pick<Order, 'orderNo' | 'status' | 'payUrl'>): { open: string } | { go: string } {
  if (order.status === 'pending' && PAY_URL.test(order.payUrl ?? '')) return { open: order.payUrl }
  return { go: resultPath(order.orderNo) }
}
