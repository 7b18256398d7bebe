// POST /api/app/mine/login/h5: account and password login.
import { api } from '@/lib/api'
import { currentPlatform } from '@/lib/platform'
import type { UserInfo } from '@/lib/user'

export interface LoginInput {
  account: string
  passWord: string
}

export interface SessionResult {
  token: string
  user: UserInfo
}

// Sent without the guest token: a wrong password answers 401, which must
// not be taken for an expired session. Silent: the form shows the server's
// tip under it, and a toast saying the same again would be noise.
export function loginH5(input: LoginInput): Promise<SessionResult> {
  return api.post<SessionResult>('/api/app/mine/login/h5', { ...input, sysType: currentPlatform() }, { noToken: true })
}
