// Rules of the phone forms, mirroring the server's (docs/api.md, *Phone,
// password and devices*): a mainland mobile is 1[3-9] and 9 more digits,
// optionally written +86; codes are 6 digits; a number gets a new code at
// most once a minute. Each check answers an i18n key, or null.
import type { MessageKey } from '@/i18n'

export const MOBILE_RE = /^1[3-9]\d{9}$/
export const CODE_RE = /^\d{6}$/
export const RESEND_SECONDS = 60

// normalizeMobile drops what people type or paste around a number (spaces,
// dashes, a +86 or 0086 prefix); the server takes only the 11 digits.
export function normalizeMobile(s: string): string {
  let m = s.replace(/[\s-]/g, '')
  if (m.startsWith('+86')) m = m.slice(3)
  else if (m.startsWith('0086')) m = m.slice(4)
  return m
}

export function checkMobile(s: string): MessageKey | null {
  const m = normalizeMobile(s)
  if (m === '') return 'ways.err.mobileRequired'
  return MOBILE_RE.test(m) ? null : 'ways.err.mobileFormat'
}

export function checkCode(s: string): MessageKey | null {
  const c = s.trim()
  if (c === '') return 'ways.err.codeRequired'
  return CODE_RE.test(c) ? null : 'ways.err.codeFormat'
}

// codeInput keeps what a code field may hold: digits, at most 6 (a pasted
// "验证码 123456" becomes 123456).
export function codeInput(s: string): string {
  return s.replace(/\D/g, '').slice(0, 6)
}

// resendLeft is how many whole seconds remain before another code may be
// asked for, given when the last one was sent (ms) and the server's wait.
export function resendLeft(sentAt: number | null, now: number, waitSeconds = RESEND_SECONDS): number {
  if (sentAt == null) return 0
  return Math.max(0, Math.ceil((sentAt + waitSeconds * 1000 - now) / 1000))
}
