// POST /api/app/withdraw and GET /api/app/withdraw/order.
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { walletKeys } from '@/lib/wallet'
import { withdrawKeys } from '@/features/withdraw/keys'
import type { Withdrawal } from '@/features/withdraw/types'

export const RECORD_PAGE_SIZE = 20

export interface WithdrawRequest {
  amount: number // cents
  accountID: number
  passWord: string
  idempotencyKey: string
}

export function postWithdraw(body: WithdrawRequest): Promise<Withdrawal> {
  return api.post<Withdrawal>('/api/app/withdraw', body, { passwordCheck: true })
}

// useWithdraw refreshes the balances and the order list whatever the
// outcome: a timeout may still have held the money.
export function useWithdraw() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: postWithdraw,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: walletKeys.all })
      void qc.invalidateQueries({ queryKey: withdrawKeys.all })
    },
  })
}

export function getWithdrawals(pageNumber: number): Promise<Page<Withdrawal>> {
  return api.get<Page<Withdrawal>>('/api/app/withdraw/order', { pageNumber, pageSize: RECORD_PAGE_SIZE })
}

export function withdrawalsQueryOptions(token: string | null) {
  return infiniteQueryOptions({
    queryKey: withdrawKeys.orders(token),
    queryFn: ({ pageParam }) => getWithdrawals(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}

export function useWithdrawals(token: string | null) {
  return useInfiniteQuery(withdrawalsQueryOptions(token))
}
