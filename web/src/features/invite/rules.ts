// Pure rules of the promoter pages, tested without a browser: the
// application's field checks (the server's, internal/earnings, so the form
// says what is wrong before a round trip; the server checks again and its
// answer wins), the promotion data's tabs and period in the query string,
// and the per-day series' bars.
import { chars } from '@/lib/support'
import type { Period } from '@/features/invite/keys'

// [min, max] characters after trimming; channel and contact are one line,
// the intro may have line breaks.
export const PROMOTER_LIMITS = { channel: [1, 30], contact: [3, 50], intro: [0, 500] } as const
export type PromoterField = keyof typeof PROMOTER_LIMITS
export const PROMOTER_FIELDS = Object.keys(PROMOTER_LIMITS) as PromoterField[]

// 'range': too short or too long; 'lines': a line break in a one-line
// field; 'control': a control character (NUL, escape, ...), refused in
// every field.
export type FieldProblem = 'range' | 'lines' | 'control'

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufffe\uffff]/
const LINE_BREAK = /[\r\n\t]/

export function fieldProblem(field: PromoterField, value: string): FieldProblem | null {
  const v = value.trim()
  const n = chars(v)
  const [min, max] = PROMOTER_LIMITS[field]
  if (n < min || n > max) return 'range'
  if (CONTROL.test(v)) return 'control'
  if (field !== 'intro' && LINE_BREAK.test(v)) return 'lines'
  return null
}

// promoterProblems: each field's problem, only the fields that have one.
export function promoterProblems(v: Record<PromoterField, string>): Partial<Record<PromoterField, FieldProblem>> {
  const out: Partial<Record<PromoterField, FieldProblem>> = {}
  for (const f of PROMOTER_FIELDS) {
    const p = fieldProblem(f, v[f])
    if (p) out[f] = p
  }
  return out
}

// The promotion data page (/mine/pushdata): ?type=data|list picks the tab
// (the spec's query), ?period=day|week|month the window of the data tab.
// Unknown values fall back to the defaults; the defaults are left out of
// the URL.
export type DataTab = 'data' | 'list'
export const PERIODS: readonly Period[] = ['day', 'week', 'month']

export function readDataTab(params: URLSearchParams, fallback: DataTab = 'data'): DataTab {
  const v = params.get('type')
  return v === 'data' || v === 'list' ? v : fallback
}

export function readPeriod(params: URLSearchParams): Period {
  const v = params.get('period')
  return v === 'week' || v === 'month' ? v : 'day'
}

// withTab / withPeriod: the query string after a tap, other parameters
// kept. Choosing a period also means the data tab.
export function withTab(params: URLSearchParams, tab: DataTab): URLSearchParams {
  const p = new URLSearchParams(params)
  p.set('type', tab)
  return p
}

export function withPeriod(params: URLSearchParams, period: Period): URLSearchParams {
  const p = withTab(params, 'data')
  if (period === 'day') p.delete('period')
  else p.set('period', period)
  return p
}

// barHeights: each value as a percentage of the largest (the tallest bar
// is 100); a value above zero is at least 4 so it stays visible beside a
// large one; all zero, all 0.
export function barHeights(values: number[]): number[] {
  const max = Math.max(0, ...values)
  if (max <= 0) return values.map(() => 0)
  return values.map((v) => (v <= 0 ? 0 : Math.max(4, Math.round((v / max) * 100))))
}

// monthDay: "2026-11-24" -> "11-24"; anything else as it came.
export function monthDay(date: string): string {
  const m = /^\d{4}-(\d{2})-(\d{2})$/.exec(date)
  return m ? `${m[1]}-${m[2]}` : date
}

// weekday of a calendar date: 0 Sunday .. 6 Saturday; -1 when unreadable.
export function weekday(date: string): number {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return -1
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return Number.isNaN(d.getTime()) ? -1 : d.getUTCDay()
}

// windowDays: the first and last day the series covers (oldest first), for
// the label above the figures; null for an empty series.
export function windowDays(series: { date: string }[]): [string, string] | null {
  if (series.length === 0) return null
  return [series[0].date, series[series.length - 1].date]
}
