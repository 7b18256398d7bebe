// Dates and checks of the money pages, pure so they are tested without a
// browser. The server buckets bills and daily limits by Asia/Shanghai days
// and months, so the default month is Shanghai's too.
import { compactCard } from '@/lib/payout'
import { parseYuan, withdrawFee, type WalletSummary } from '@/lib/wallet'

const SHANGHAI = 'Asia/Shanghai'

// shanghaiMonth: "YYYY-MM" of an instant in Asia/Shanghai.
export function shanghaiMonth(at: Date = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone: SHANGHAI, year: 'numeric', month: '2-digit' }).formatToParts(at)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${get('year')}-${get('month')}`
}

// recentMonths: n months back from at's month in Asia/Shanghai, newest
// first ("2026-11", "2026-10", ...).
export function recentMonths(n: number, at: Date = new Date()): string[] {
  const [y, m] = shanghaiMonth(at).split('-').map(Number)
  return Array.from({ length: n }, (_, i) => {
    const k = y * 12 + (m - 1) - i
    return `${Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}`
  })
}

// validMonth: "YYYY-MM" with a real month (the native month input's value).
export function validMonth(s: string): boolean {
  const m = /^(\d{4})-(\d{2})$/.exec(s)
  return m != null && Number(m[2]) >= 1 && Number(m[2]) <= 12 && Number(m[1]) >= 2000
}

// shortTime lives in lib/time (the earnings pages show times the same way).
export { shortTime } from '@/lib/time'

// signed: "+12" / "-3" (coins) or "+1.50" / "-0.20" (cents as yuan).
export function signed(n: number, text: string): string {
  return n > 0 ? `+${text}` : text
}

export type WithdrawProblem =
  | { kind: 'amount' }
  | { kind: 'min' | 'max' | 'daily'; cents: number }
  | { kind: 'balance' }
  | { kind: 'account' }

export interface WithdrawPreview {
  amount: number | null // cents, null when the text is not an amount
  fee: number
  net: number
  problem: WithdrawProblem | null
}

// previewWithdraw reads the typed amount against the wallet's limits, as
// the server will: between withdrawMin and withdrawMax, no more than the
// income, within the daily total; fee rounded up to a cent. The daily count
// and what was already withdrawn today are the server's to check.
export function previewWithdraw(text: string, w: WalletSummary, accountID: number | null): WithdrawPreview {
  const amount = parseYuan(text)
  if (amount == null) return { amount: null, fee: 0, net: 0, problem: text.trim() === '' ? null : { kind: 'amount' } }
  const fee = withdrawFee(amount, w.feePercent)
  const res = { amount, fee, net: amount - fee }
  if (amount < w.withdrawMin) return { ...res, problem: { kind: 'min', cents: w.withdrawMin } }
  if (w.withdrawMax > 0 && amount > w.withdrawMax) return { ...res, problem: { kind: 'max', cents: w.withdrawMax } }
  if (w.withdrawDailyMax > 0 && amount > w.withdrawDailyMax) return { ...res, problem: { kind: 'daily', cents: w.withdrawDailyMax } }
  if (amount > w.income) return { ...res, problem: { kind: 'balance' } }
  if (accountID == null) return { ...res, problem: { kind: 'account' } }
  return { ...res, problem: null }
}

// maxWithdrawable is what the 全部 button fills in: the income, capped by
// the single and daily limits.
export function maxWithdrawable(w: WalletSummary): number {
  let m = w.income
  if (w.withdrawMax > 0) m = Math.min(m, w.withdrawMax)
  if (w.withdrawDailyMax > 0) m = Math.min(m, w.withdrawDailyMax)
  return Math.max(0, m)
}

// sumByType totals signed amounts per entry type, in the order types first
// appear; in and out are the month's credits and debits.
export function sumByType(entries: { type: string; amount: number }[]): {
  byType: { type: string; total: number }[]
  in: number
  out: number
} {
  const totals = new Map<string, number>()
  let inSum = 0
  let outSum = 0
  for (const e of entries) {
    totals.set(e.type, (totals.get(e.type) ?? 0) + e.amount)
    if (e.amount > 0) inSum += e.amount
    else outSum += e.amount
  }
  return { byType: [...totals].map(([type, total]) => ({ type, total })), in: inSum, out: outSum }
}

// groupCard shows a card number in groups of four as it is typed.
export function groupCard(text: string): string {
  return compactCard(text)
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ')
}
