// POST /api/app/code/exchange {code}: redeem; GET /api/app/code/records:
// the caller's redemptions, newest first (docs/api.md, *Redemption codes*).
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { walletKeys } from '@/lib/wallet'
import type { Reward } from '@/features/codes/format'

export interface Redemption {
  id: number
  code: string // masked: ABCD-****-****
  name: string // the batch's name
  reward: Reward
  createdAt: number // unix seconds
}

export const codesKeys = {
  all: ['codes'] as const,
  records: (token: string | null) => [...codesKeys.all, 'records', token] as const,
}

export const RECORDS_PAGE_SIZE = 20

export function postRedeem(code: string): Promise<Redemption> {
  return api.post<Redemption>('/api/app/code/exchange', { code })
}

export function getRecords(pageNumber: number): Promise<Page<Redemption>> {
  return api.get<Page<Redemption>>('/api/app/code/records', { pageNumber, pageSize: RECORDS_PAGE_SIZE })
}

export function useRecords(token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: codesKeys.records(token),
      queryFn: ({ pageParam }) => getRecords(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}

// useRedeem refreshes the wallet (coins, VIP, coupons all show there) and
// the records once the answer is in, whichever it was.
export function useRedeem() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: postRedeem,
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: walletKeys.all })
      void qc.invalidateQueries({ queryKey: codesKeys.all })
    },
  })
}
