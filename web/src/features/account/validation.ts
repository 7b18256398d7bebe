// Client-side form rules. Registration mirrors the server's (api-contract):
// account 4-20 letters, digits or underscores starting with a letter;
// password 6-32 characters holding at least one letter and one digit. The
// server checks again; these only spare the user a round trip. Each check
// answers an i18n key, or null when the value passes.

import type { MessageKey } from '@/i18n'

export const ACCOUNT_RE = /^[A-Za-z][A-Za-z0-9_]{3,19}$/
export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 32

export type FieldErrors<K extends string> = Partial<Record<K, MessageKey>>

// normalizeAccount: accounts never hold spaces, so stray ones from the
// keyboard or a paste are dropped at the ends rather than refused.
export function normalizeAccount(s: string): string {
  return s.trim()
}

export function checkAccount(account: string): MessageKey | null {
  const a = normalizeAccount(account)
  if (a === '') return 'form.account.required'
  if (a.length < 4 || a.length > 20) return 'form.account.length'
  if (!/^[A-Za-z]/.test(a)) return 'form.account.start'
  if (!ACCOUNT_RE.test(a)) return 'form.account.chars'
  return null
}

export function checkPassword(password: string): MessageKey | null {
  if (password === '') return 'form.password.required'
  const n = [...password].length
  if (n < PASSWORD_MIN || n > PASSWORD_MAX) return 'form.password.length'
  if (!/[A-Za-z]/.test(password) || !/[0-9]/.test(password)) return 'form.password.mix'
  return null
}

export function checkConfirm(password: string, confirm: string): MessageKey | null {
  if (confirm === '') return 'form.confirm.required'
  if (confirm !== password) return 'form.confirm.mismatch'
  return null
}

export interface RegisterForm {
  account: string
  password: string
  confirm: string
}

export function validateRegister(f: RegisterForm): FieldErrors<keyof RegisterForm> {
  const errs: FieldErrors<keyof RegisterForm> = {}
  const a = checkAccount(f.account)
  const p = checkPassword(f.password)
  const c = checkConfirm(f.password, f.confirm)
  if (a) errs.account = a
  if (p) errs.password = p
  if (c) errs.confirm = c
  return errs
}

export interface LoginForm {
  account: string
  password: string
}

// Login only asks for both fields: an account made under older rules must
// still be able to sign in, and the server answers wrong credentials with
// one tip for both fields.
export function validateLogin(f: LoginForm): FieldErrors<keyof LoginForm> {
  const errs: FieldErrors<keyof LoginForm> = {}
  if (normalizeAccount(f.account) === '') errs.account = 'form.account.required'
  if (f.password === '') errs.password = 'form.password.required'
  return errs
}

export function hasErrors(errs: Record<string, string | undefined>): boolean {
  return Object.values(errs).some(Boolean)
}
