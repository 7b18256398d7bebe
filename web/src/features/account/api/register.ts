// POST /api/app/mine/register. Sent with the guest's token, the server
// upgrades that guest in place (same uid); without one it creates a user.
// Silent: the form shows the server's tip itself.
import { api } from '@/lib/api'
import type { SessionResult } from './login-h5'

export interface RegisterInput {
  account: string
  passWord: string
}

export function register(input: RegisterInput): Promise<SessionResult> {
  return api.post<SessionResult>('/api/app/mine/register', input)
}

// registerInvited registers after binding the guest to the inviter whose
// code the form was opened with (/mine/register?ic=CODE), so the inviter's
// reward is settled at registration (docs/api.md, *Invitations*). A first
// visit's guest sign-in has usually bound that code already; then, as for
// any refusal (the window passed, one's own code), the bind answers no and
// the registration goes on. Only a guest binds: a registered user's form
// makes a new account, which the code is not for.
export async function registerInvited(input: RegisterInput, code: string | null, isGuest: boolean): Promise<SessionResult> {
  if (code && isGuest) await api.post('/api/app/mine/inviteBind', { code }).catch(() => undefined)
  return register(input)
}
