// The ban and mute dialogs' rules, checked in the browser as the server
// checks them (internal/account/ban.go, internal/community/admin.go): a
// length from the presets or a custom number of minutes, a reason of 1-200
// characters without control characters.

export const MAX_BAN_MINUTES = 10 * 365 * 24 * 60 // ten years; longer is "forever"
export const MAX_MUTE_MINUTES = 525_600 // a year
export const REASON_MAX = 200

// The presets, in minutes; 'forever' for bans only, 'custom' types minutes.
export const PRESETS = [60, 24 * 60, 3 * 24 * 60, 7 * 24 * 60, 30 * 24 * 60, 365 * 24 * 60] as const
export type Length = number | 'forever' | 'custom'

export type LengthProblem = 'needMinutes' | 'badMinutes' | 'tooLong' | null
export type ReasonProblem = 'needReason' | 'reasonTooLong' | 'reasonControl' | null

// minutesOf is what the length asks for: a number of minutes, 'forever',
// or the problem with it.
export function minutesOf(kind: 'ban' | 'mute', length: Length, custom: string): number | 'forever' | LengthProblem {
  if (length === 'forever') return kind === 'ban' ? 'forever' : 'badMinutes'
  if (length !== 'custom') return length
  const s = custom.trim()
  if (s === '') return 'needMinutes'
  if (!/^\d{1,9}$/.test(s) || Number(s) < 1) return 'badMinutes'
  const n = Number(s)
  return n > (kind === 'ban' ? MAX_BAN_MINUTES : MAX_MUTE_MINUTES) ? 'tooLong' : n
}

// reasonProblem names what is wrong with a reason, or null.
export function reasonProblem(reason: string): ReasonProblem {
  const r = reason.trim()
  if (r === '') return 'needReason'
  if ([...r].length > REASON_MAX) return 'reasonTooLong'
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(r)) return 'reasonControl'
  return null
}

// Ends far in the future are "forever" (the server stores 9999-12-31).
export const FOREVER_FROM = 253402300799

export function isForever(until: number): boolean {
  return until >= FOREVER_FROM
}
