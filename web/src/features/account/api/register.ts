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
  return api.post<SessionResult>('/api/app/mine/register', input, { silent: true })
}
