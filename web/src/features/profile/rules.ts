// The profile rules the server applies (internal/account/profile.go),
// checked before sending so the user sees the reason at once. The server
// stays the judge: these only spare a round trip.
export const NAME_MIN = 2
export const NAME_MAX = 16
export const BIO_MAX = 60

export type Gender = 0 | 1 | 2

// Chinese reserved words anywhere; Latin ones at the start or end (as the
// server: "badminton" is a fine name, "Admin2" is not).
const RESERVED_WORDS = ['客服', '官方', '管理员', '系统消息', '运营', '平台']
const RESERVED_LATIN = ['admin', 'official', 'system', 'prima', 'operator', 'support']

// Characters a name or bio may not hold: controls, format characters (zero
// width, bidi overrides) and line or paragraph separators.
const INVISIBLE = /[\p{Cc}\p{Cf}\u2028\u2029]/u

// length counts characters as the server does (code points, not UTF-16 units).
export function length(s: string): number {
  return [...s].length
}

// fold is the name as the reserved-word check sees it: compatibility forms
// folded (fullwidth letters), lower case, letters and digits only.
export function fold(s: string): string {
  return [...s.normalize('NFKC').toLowerCase()].filter((c) => /[\p{L}\p{N}]/u.test(c)).join('')
}

export type NameProblem =
  | { code: 'empty' }
  | { code: 'length'; min: number; max: number }
  | { code: 'invisible' }
  | { code: 'guest' }
  | { code: 'reserved'; word: string }

// checkName returns why a name (trimmed first) is refused, or null.
export function checkName(raw: string): NameProblem | null {
  const name = raw.trim()
  if (name === '') return { code: 'empty' }
  const n = length(name)
  if (n < NAME_MIN || n > NAME_MAX) return { code: 'length', min: NAME_MIN, max: NAME_MAX }
  if (INVISIBLE.test(name)) return { code: 'invisible' }
  const f = fold(name)
  if (f.startsWith('游客')) return { code: 'guest' }
  const cjk = RESERVED_WORDS.find((w) => f.includes(w))
  if (cjk) return { code: 'reserved', word: cjk }
  const latin = RESERVED_LATIN.find((w) => f.startsWith(w) || f.endsWith(w))
  if (latin) return { code: 'reserved', word: latin }
  return null
}

export type BioProblem = { code: 'length'; max: number } | { code: 'invisible' }

export function checkBio(raw: string): BioProblem | null {
  const bio = raw.trim()
  if (length(bio) > BIO_MAX) return { code: 'length', max: BIO_MAX }
  if (INVISIBLE.test(bio)) return { code: 'invisible' }
  return null
}

// Square crop of a picture of w x h: the user zooms (1 = the largest square
// that fits) and drags (dx, dy in source pixels from the centre). cropRect
// keeps the square inside the picture whatever the gesture asks.
export interface Rect {
  x: number
  y: number
  size: number
}

export function cropRect(w: number, h: number, zoom: number, dx: number, dy: number): Rect {
  const side = Math.min(w, h) / Math.min(Math.max(zoom, 1), 4)
  const clamp = (v: number, lo: number, hi: number) => Math.min(Math.max(v, lo), hi)
  const x = clamp((w - side) / 2 + dx, 0, w - side)
  const y = clamp((h - side) / 2 + dy, 0, h - side)
  return { x: Math.round(x), y: Math.round(y), size: Math.round(side) }
}

// PORTRAIT_SIZE is the side of the square uploaded: sharp at 3x on the
// 96 px header avatar, small enough to send fast on a phone line.
export const PORTRAIT_SIZE = 512

// toggledFans is the optimistic follow: isFollow flips and the fans count
// moves by one, never below zero; the server's answer replaces it.
export function toggledFans(fans: number, wasFollowing: boolean, follow: boolean): number {
  if (wasFollowing === follow) return fans
  return Math.max(0, fans + (follow ? 1 : -1))
}
