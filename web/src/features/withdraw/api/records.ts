// The record lists: the coin bill (GET /api/app/mine/zhangdan), income
// entries (GET mine/iIncomes) and top-up / VIP orders (GET mine/rchg/order),
// each paged, newest first. type "" and month "" mean all.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Page } from '@/lib/wallet'
import { withdrawKeys } from '@/features/withdraw/keys'
import { nextPage, RECORD_PAGE_SIZE } from '@/features/withdraw/api/withdraw'
import type { BillEntry, IncomeEntry, Order } from '@/features/withdraw/types'

const filter = (type: string, month: string) => ({ type: type || undefined, month: month || undefined })

export function getBill(type: string, month: string, pageNumber: number): Promise<Page<BillEntry>> {
  return api.get<Page<BillEntry>>('/api/app/mine/zhangdan', { ...filter(type, month), pageNumber, pageSize: RECORD_PAGE_SIZE }, { silent: true })
}

export function getIncomes(type: string, month: string, pageNumber: number): Promise<Page<IncomeEntry>> {
  return api.get<Page<IncomeEntry>>('/api/app/mine/iIncomes', { ...filter(type, month), pageNumber, pageSize: RECORD_PAGE_SIZE }, { silent: true })
}

export function getOrders(pageNumber: number): Promise<Page<Order>> {
  return api.get<Page<Order>>('/api/app/mine/rchg/order', { pageNumber, pageSize: RECORD_PAGE_SIZE }, { silent: true })
}

export function useBill(type: string, month: string, token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: withdrawKeys.bill(type, month, token),
      queryFn: ({ pageParam }) => getBill(type, month, pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}

export function useIncomes(type: string, month: string, token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: withdrawKeys.income(type, month, token),
      queryFn: ({ pageParam }) => getIncomes(type, month, pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}

export function useOrders(token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: withdrawKeys.rchg(token),
      queryFn: ({ pageParam }) => getOrders(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}
