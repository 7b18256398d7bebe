// Money on screen: cents as yuan, yuan typed by an operator back to cents
// (integers only: a typo never becomes a fraction of a cent).

export const yuan = (cents: number): string => {
  const neg = cents < 0
  const c = Math.abs(Math.trunc(cents))
  return `${neg ? '-' : ''}${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`
}

// centsOf reads "12", "12.3", "12.34" (yuan) as cents; null for anything
// else (more than two decimals, signs, letters, empty).
export function centsOf(text: string): number | null {
  const m = /^(\d{1,12})(?:\.(\d{1,2}))?$/.exec(text.trim())
  if (!m) return null
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'))
}

// signedAmount reads an adjustment: a non-zero integer, signed, within
// ±max; for income it is yuan with up to two decimals, made cents.
export function signedAmount(text: string, inCents: boolean, max: number): number | null {
  const s = text.trim()
  const neg = s.startsWith('-')
  const body = neg || s.startsWith('+') ? s.slice(1) : s
  let n: number | null
  if (inCents) n = centsOf(body)
  else n = /^\d{1,12}$/.test(body) ? Number(body) : null
  if (n === null || n === 0 || n > max) return null
  return neg ? -n : n
}

// newKey is an idempotency key for one operator action (a retry of the
// same dialog sends the same key).
export const newKey = (): string => `money-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
