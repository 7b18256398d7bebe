// GET and POST /api/app/mine/settled: the creator application and its state.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { supportKeys } from '@/features/support/keys'
import type { Settled } from '@/features/support/types'

export interface SettledRequest {
  name: string
  contact: string
  intro: string
  category: string
}

export function useSettled(token: string | null) {
  return useQuery({
    queryKey: supportKeys.settled(token),
    queryFn: () => api.get<Settled>('/api/app/mine/settled'),
    enabled: token != null,
  })
}

export function useApply(token: string | null) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: SettledRequest) => api.post<Settled>('/api/app/mine/settled', body),
    onSuccess: (s) => qc.setQueryData(supportKeys.settled(token), s),
  })
}
