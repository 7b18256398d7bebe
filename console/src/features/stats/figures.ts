// Pure arithmetic of the statistics pages: the range in the URL, the
// presets, the totals of a range and the money as yuan. Unit-tested.
import dayjs from 'dayjs'
import type { Range, StatsDay } from './api'

export const MAX_DAYS = 366
export const PRESETS = [7, 30, 90] as const
const DAY = /^\d{4}-\d{2}-\d{2}$/

// The days are Asia/Shanghai days, as the server counts them.
export function todayInShanghai(now: number = Date.now()): string {
  return new Date(now + 8 * 3600_000).toISOString().slice(0, 10)
}

// lastDays is the n days up to today, today included.
export function lastDays(n: number, now: number = Date.now()): Range {
  const to = todayInShanghai(now)
  return { from: dayjs(to).subtract(n - 1, 'day').format('YYYY-MM-DD'), to }
}

// rangeFrom reads ?from&to; a missing, malformed, backwards or too long
// range is the last 7 days.
export function rangeFrom(params: URLSearchParams, now: number = Date.now()): Range {
  const from = params.get('from') ?? ''
  const to = params.get('to') ?? ''
  if (DAY.test(from) && DAY.test(to) && dayjs(from).isValid() && dayjs(to).isValid()) {
    const n = dayjs(to).diff(dayjs(from), 'day') + 1
    if (n >= 1 && n <= MAX_DAYS && dayjs(from).format('YYYY-MM-DD') === from && dayjs(to).format('YYYY-MM-DD') === to) return { from, to }
  }
  return lastDays(7, now)
}

export interface Totals {
  activeAvg: number // mean daily active users over the days, one decimal
  activePeak: number
  newGuests: number
  registrations: number
  payers: number // payer-days: a user paying on two days counts twice
  firstPayments: number
  topup: number
  vip: number
  revenue: number
  withdrawCount: number
  withdrawCents: number
  plays: number
  searches: number
  visits: number
  byProvider: Record<string, number>
}

export function totals(days: readonly StatsDay[]): Totals {
  const t: Totals = {
    activeAvg: 0, activePeak: 0, newGuests: 0, registrations: 0, payers: 0, firstPayments: 0, topup: 0, vip: 0, revenue: 0,
    withdrawCount: 0, withdrawCents: 0, plays: 0, searches: 0, visits: 0, byProvider: {},
  }
  let active = 0
  for (const d of days) {
    active += d.activeUsers
    t.activePeak = Math.max(t.activePeak, d.activeUsers)
    t.newGuests += d.newGuests
    t.registrations += d.registrations
    t.payers += d.payers
    t.firstPayments += d.funnel.firstPayments
    t.topup += d.revenue.topup
    t.vip += d.revenue.vip
    t.revenue += d.revenue.total
    t.withdrawCount += d.withdrawals.count
    t.withdrawCents += d.withdrawals.cents
    t.plays += d.plays
    t.searches += d.searches
    t.visits += d.funnel.visits
    for (const [p, c] of Object.entries(d.byProvider)) t.byProvider[p] = (t.byProvider[p] ?? 0) + c
  }
  t.activeAvg = days.length ? Math.round((active / days.length) * 10) / 10 : 0 // one decimal: 3 users over 10 days is 0.3, not 0
  return t
}

// yuan is cents as yuan with two decimals and thousands separators.
export function yuan(cents: number): string {
  const neg = cents < 0
  const a = Math.abs(Math.trunc(cents))
  const whole = Math.floor(a / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')
  return `${neg ? '-' : ''}¥${whole}.${String(a % 100).padStart(2, '0')}`
}

// rate is part / whole as a percentage with one decimal, '–' when whole is 0.
export function rate(part: number, whole: number): string {
  if (whole <= 0) return '–'
  return `${((part / whole) * 100).toFixed(1)}%`
}

// notRolled is the days of the range never rolled up (read as zeros).
export function notRolled(days: readonly StatsDay[]): number {
  return days.filter((d) => !d.rolled).length
}

// toCSV is a CSV file's text (with a byte order mark, so spreadsheets read
// the Chinese right): cells with a comma, quote or line break are quoted,
// and a text cell starting with = + - @ or a tab gets a leading ' (as the
// server's CSV does: a searched word is typed by users).
export function toCSV(head: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (v: string | number) => {
    let s = String(v)
    if (typeof v === 'string' && /^[=+\-@\t\r]/.test(s)) s = "'" + s
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s
  }
  return '\ufeff' + [head, ...rows].map((r) => r.map(cell).join(',')).join('\r\n') + '\r\n'
}

// cents2 is cents as yuan with two decimals and no separators, for CSV.
export function cents2(cents: number): string {
  return (cents / 100).toFixed(2)
}
