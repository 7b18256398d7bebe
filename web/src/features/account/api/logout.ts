// POST /api/app/mine/logout: revokes the current token.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'

export function logout(): Promise<null> {
  return api.post<null>('/api/app/mine/logout', {})
}

export function useLogout() {
  return useMutation({ mutationFn: logout })
}
