// The wallet's shapes and pure helpers, shared by the wallet pages and the
// pages that sell (paywalls, VIP centre, withdrawals): docs/api.md, *Wallet*.
// Money is integer cents (CNY fen); coins are integers.

export interface WalletSummary {
  coins: number
  income: number // cents
  incomeFrozen: number // cents held by pending withdrawals
  exchangeRate: number // coins per 100 cents
  exchangeMin: number // cents
  withdrawMin: number // cents
  withdrawMax: number // cents
  feePercent: number
  withdrawDailyCount: number
  withdrawDailyMax: number // cents
}

// The query keys of wallet data that more than one feature reads or
// invalidates (a purchase anywhere refreshes the wallet). Personal, so
// they carry the token like every personal key.
export const walletKeys = {
  all: ['wallet'] as const,
  summary: (token: string | null) => [...walletKeys.all, 'summary', token] as const,
}

export const WALLET_SUMMARY_PATH = '/api/app/mine/wallet'

// yuan formats cents as yuan with two decimals: 12345 -> "123.45". Integer
// arithmetic only, so no float ever rounds a price.
export function yuan(cents: number): string {
  const neg = cents < 0
  const abs = Math.abs(Math.trunc(cents))
  const s = `${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`
  return neg ? `-${s}` : s
}

// parseYuan reads what a user typed ("12", "12.5", "12.50") as cents, or
// null when it is not a positive amount with at most two decimals.
export function parseYuan(text: string): number | null {
  const m = /^\s*(\d{1,9})(?:\.(\d{1,2}))?\s*$/.exec(text)
  if (!m) return null
  const cents = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
  return cents > 0 ? cents : null
}

// newIdempotencyKey makes the key of one intent (a tap on 购买): the
// caller keeps it while retrying that intent and makes a new one for the
// next (docs/api.md, *Idempotency*).
export function newIdempotencyKey(prefix = 'k'): string {
  const bytes = new Uint8Array(12)
  crypto.getRandomValues(bytes)
  return `${prefix}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
}

// withdrawFee is the fee of a withdrawal of amount cents at feePercent,
// rounded up to a cent, as the server computes it.
export function withdrawFee(amount: number, feePercent: number): number {
  return Math.ceil((amount * feePercent) / 100)
}
