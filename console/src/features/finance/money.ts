// Money as the console shows and sends it: the server counts cents and
// basis points (integers); the operator reads and types yuan and percent.
// Conversions round to the nearest integer so 0.1 + 0.2 style float noise
// never reaches the server, and they refuse what the server would refuse.

// yuan: cents as "¥1,234.56" (negative "-¥0.05").
export function yuan(cents: number): string {
  const neg = cents < 0
  const a = Math.abs(Math.trunc(cents))
  const whole = Math.floor(a / 100).toLocaleString('en-US')
  return `${neg ? '-' : ''}¥${whole}.${String(a % 100).padStart(2, '0')}`
}

// toCents: a yuan amount typed with at most two decimals, as cents; null
// when it is not a finite number.
export function toCents(yuanValue: number | null | undefined): number | null {
  if (yuanValue === null || yuanValue === undefined || !Number.isFinite(yuanValue)) return null
  return Math.round(yuanValue * 100)
}

// fromCents: cents as the yuan number a form field holds.
export const fromCents = (cents: number): number => cents / 100

// percent: basis points as "12.5%".
export function percent(bps: number): string {
  return `${Number((bps / 100).toFixed(2))}%`
}

// toBps: a percent typed with at most two decimals, as basis points.
export function toBps(pct: number | null | undefined): number | null {
  if (pct === null || pct === undefined || !Number.isFinite(pct)) return null
  return Math.round(pct * 100)
}

// newKey: an idempotency key for one money action (the same key is sent
// again when a step-up or the network makes the console retry it).
export function newKey(prefix: string): string {
  const rnd = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`
  return `${prefix}-${rnd}`.slice(0, 64)
}

// Date ranges of the reconciliation: YYYY-MM-DD in Asia/Shanghai (the
// server's business day), whatever zone the browser is in.
export function shanghaiDate(ms: number): string {
  return new Date(ms + 8 * 3600_000).toISOString().slice(0, 10)
}

// addDays moves a YYYY-MM-DD date by n days.
export function addDays(date: string, n: number): string {
  const d = new Date(date + 'T00:00:00Z')
  d.setUTCDate(d.getUTCDate() + n)
  return d.toISOString().slice(0, 10)
}

// daysBetween counts the days from..to, both included.
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(to + 'T00:00:00Z') - Date.parse(from + 'T00:00:00Z')) / 86_400_000) + 1
}

export const MAX_RECON_DAYS = 92
