// Pure rules of the growth pages, unit-tested: the CSV of a new code batch,
// a batch's state, the pins parsed as the server checks them, the bounds of
// rewards the server enforces.
import type { Batch } from './api'

export const MAX_BATCH_CODES = 10000
export const MAX_USES_PER_CODE = 1000000
export const MAX_BATCH_NAME = 60
export const MAX_REWARD_COINS = 1000000
export const MAX_REWARD_VIP_DAYS = 3660
export const MAX_REWARD_COUPONS = 100
export const MAX_POINTS = 1000000
export const MAX_PINS = 10
export const MAX_PIN_CHARS = 20
export const CYCLE_DAYS = 7

// codesCSV is the file an operator hands to a printer or a partner: one
// code a line under a header, CRLF so spreadsheet programs on any system
// read it. Codes are A-Z and 2-9 with dashes: nothing to quote.
export function codesCSV(codes: readonly string[]): string {
  return ['code', ...codes].join('\r\n') + '\r\n'
}

export function codesFileName(batchID: number): string {
  return `codes-batch-${batchID}.csv`
}

// downloadText saves text as a file through a Blob link (the browser's
// own download; nothing leaves the machine).
export function downloadText(text: string, name: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

export type BatchState = 'active' | 'disabled' | 'expired' | 'usedUp'

export function batchState(b: Batch, nowSeconds: number): BatchState {
  if (b.disabledAt) return 'disabled'
  if (b.expiresAt && nowSeconds >= b.expiresAt) return 'expired'
  if (b.codesUsedUp >= b.count) return 'usedUp'
  return 'active'
}

// uses left across the batch's codes (never below 0).
export function usesLeft(b: Batch): number {
  return Math.max(0, b.count * b.usesPerCode - b.redeemed)
}

export type PinProblem = { kind: 'empty' | 'tooLong' | 'repeat' | 'control'; line: number } | { kind: 'tooMany'; count: number }

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

// parsePins reads one word a line (blank lines skipped) and says what the
// server would refuse: over MAX_PIN_CHARS, a repeat (case and width folded
// as far as the browser can), a control character, over MAX_PINS words.
export function parsePins(text: string): { words: string[]; problems: PinProblem[] } {
  const words: string[] = []
  const problems: PinProblem[] = []
  const seen = new Set<string>()
  text.split('\n').forEach((raw, i) => {
    const line = i + 1
    const w = raw.replace(/\r$/, '').trim()
    if (w === '') return
    if (CONTROL.test(w)) problems.push({ kind: 'control', line })
    else if ([...w].length > MAX_PIN_CHARS) problems.push({ kind: 'tooLong', line })
    const key = w.normalize('NFKC').toLowerCase()
    if (seen.has(key)) problems.push({ kind: 'repeat', line })
    seen.add(key)
    words.push(w)
  })
  if (words.length > MAX_PINS) problems.push({ kind: 'tooMany', count: words.length })
  return { words, problems }
}

// whole is a form number as an integer within [min, max], or null.
export function whole(v: unknown, min: number, max: number): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN
  return Number.isInteger(n) && n >= min && n <= max ? n : null
}
