// POST /api/app/mine/loginpwd {sysType, uid, pwd, oldPwd}: change the
// password; the other sessions of the account end, this one stays.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { currentPlatform } from '@/lib/platform'

export interface PwdInput {
  uid: number
  pwd: string
  oldPwd: string
}

export function changePassword(input: PwdInput): Promise<null> {
  return api.post<null>('/api/app/mine/loginpwd', { ...input, sysType: currentPlatform() }, { passwordCheck: true })
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword })
}
