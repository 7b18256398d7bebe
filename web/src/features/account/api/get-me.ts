// GET /api/app/mine/info: the caller's own user info.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { UserInfo } from '@/lib/user'
import { accountKeys } from '@/features/account/keys'

export function getMe(): Promise<UserInfo> {
  return api.get<UserInfo>('/api/app/mine/info')
}

// The key carries the token so a new session never sees the last one's data.
export function meQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: accountKeys.me(token),
    queryFn: getMe,
    enabled: token != null,
    staleTime: 30_000,
  })
}

export function useMe(token: string | null) {
  return useQuery(meQueryOptions(token))
}
