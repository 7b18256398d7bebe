// POST /api/app/mine/forget {mobile, code, pwd}: a new password by SMS.
// Sent without a token: it is for someone who cannot sign in, and the
// server signs every session of the account out.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'

export interface ForgetInput {
  mobile: string
  code: string
  pwd: string
}

export function resetPassword(input: ForgetInput): Promise<null> {
  return api.post<null>('/api/app/mine/forget', input, { noToken: true })
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword })
}
