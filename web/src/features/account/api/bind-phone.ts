// POST /api/app/mine/bindphone {mobile, code, pwd}: bind or change the
// phone. The password is checked afresh: a wrong one is a 401 that does
// not end the session (passwordCheck).
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { UserInfo } from '@/lib/user'
import { useUserStore } from '@/stores/user'

export interface BindInput {
  mobile: string
  code: string
  pwd: string
}

export function bindPhone(input: BindInput): Promise<UserInfo> {
  return api.post<UserInfo>('/api/app/mine/bindphone', input, { passwordCheck: true })
}

export function useBindPhone() {
  const setUser = useUserStore((s) => s.setUser)
  return useMutation({ mutationFn: bindPhone, onSuccess: (u) => setUser(u) })
}
