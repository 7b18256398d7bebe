// GET /api/app/mine/sessions and POST mine/sessions/revoke {id} |
// {others: true}: the devices signed in to the account.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { accountKeys } from '@/features/account/keys'

export interface SignedInDevice {
  id: string
  sysType: string
  device: string
  createdAt: number // unix seconds
  lastSeenAt: number
  current: boolean
}

export function getSessions(): Promise<{ list: SignedInDevice[] }> {
  return api.get<{ list: SignedInDevice[] }>('/api/app/mine/sessions')
}

export function sessionsQueryOptions(token: string | null) {
  return queryOptions({ queryKey: accountKeys.sessions(token), queryFn: getSessions, enabled: token != null })
}

export function useSessions(token: string | null) {
  return useQuery(sessionsQueryOptions(token))
}

export function revokeSessions(body: { id: string } | { others: true }): Promise<{ revoked: number }> {
  return api.post<{ revoked: number }>('/api/app/mine/sessions/revoke', body, { toast: true })
}

export function useRevokeSessions() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: revokeSessions,
    onSettled: () => qc.invalidateQueries({ queryKey: accountKeys.sessionsAll() }),
  })
}
