// The console session calls (docs/api.md *Operator console*): sign in with
// account, password and a second factor; enrol TOTP on the first sign-in;
// step up; sign out; who am I.
import { ApiError } from './api'
import { api } from './client'
import type { Timestamp } from './time'

export const ROLES = ['owner', 'content', 'moderator', 'finance', 'support'] as const
export type Role = (typeof ROLES)[number]

export const SECTIONS = ['dashboard', 'content', 'people', 'moderation', 'money', 'growth', 'audit', 'operators', 'settings'] as const
export type Section = (typeof SECTIONS)[number]

export interface SessionInfo {
  account: string
  name: string
  role: Role
  expiresAt: Timestamp // the absolute end (12 hours after sign-in)
  idleExpiresAt: Timestamp // 30 minutes after the last call
  stepUpUntil: Timestamp | null
  sections: Section[]
}

export interface SignedIn {
  token: string
  expiresAt: Timestamp
  role: Role
}

export interface Enrolment {
  ticket: string
  secret: string
  otpauthURL: string
}

export type SignInResult = { kind: 'in'; session: SignedIn } | { kind: 'enrol'; enrol: Enrolment }

// enrolmentOf reads the 428 answer of an operator who has no TOTP yet.
export function enrolmentOf(err: unknown): Enrolment | null {
  if (!(err instanceof ApiError) || err.status !== 428) return null
  const d = err.data as { enrol?: Partial<Enrolment> } | null
  const e = d?.enrol
  if (!e || typeof e.ticket !== 'string' || typeof e.secret !== 'string' || typeof e.otpauthURL !== 'string') return null
  return { ticket: e.ticket, secret: e.secret, otpauthURL: e.otpauthURL }
}

export async function signIn(account: string, passWord: string, code: string): Promise<SignInResult> {
  try {
    const session = await api.post<SignedIn>('/api/admin/session', { account, passWord, code }, { auth: false })
    return { kind: 'in', session }
  } catch (e) {
    const enrol = enrolmentOf(e)
    if (enrol) return { kind: 'enrol', enrol }
    throw e
  }
}

export function enrol(ticket: string, code: string): Promise<SignedIn & { recoveryCodes: string[] }> {
  return api.post('/api/admin/session/enrol', { ticket, code }, { auth: false })
}

export function getSession(): Promise<SessionInfo> {
  return api.get<SessionInfo>('/api/admin/session')
}

export function stepUp(code: string): Promise<{ stepUpUntil: Timestamp }> {
  return api.post('/api/admin/session/stepup', { code }, { stepUp: false })
}

export function signOut(): Promise<unknown> {
  return api.del('/api/admin/session', { stepUp: false })
}

export const sessionKeys = {
  all: ['session'] as const,
}
