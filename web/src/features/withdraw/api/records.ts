// The record lists: the coin bill (GET /api/app/mine/zhangdan), income
// entries (GET mine/iIncomes) and top-up / VIP orders (GET mine/rchg/order),
// each paged, newest first. type "" and month "" mean all.
import { infiniteQueryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { withdrawKeys } from '@/features/withdraw/keys'
import { RECORD_PAGE_SIZE } from '@/features/withdraw/api/withdraw'
import type { BillEntry, IncomeEntry, IncomeSummary, Order } from '@/features/withdraw/types'

const filter = (type: string, month: string) => ({ type: type || undefined, month: month || undefined })

export function getBill(type: string, month: string, pageNumber: number): Promise<Page<BillEntry>> {
  return api.get<Page<BillEntry>>('/api/app/mine/zhangdan', { ...filter(type, month), pageNumber, pageSize: RECORD_PAGE_SIZE })
}

export function getIncomes(type: string, month: string, pageNumber: number): Promise<Page<IncomeEntry>> {
  return api.get<Page<IncomeEntry>>('/api/app/mine/iIncomes', { ...filter(type, month), pageNumber, pageSize: RECORD_PAGE_SIZE })
}

export function getOrders(pageNumber: number): Promise<Page<Order>> {
  return api.get<Page<Order>>('/api/app/mine/rchg/order', { pageNumber, pageSize: RECORD_PAGE_SIZE })
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

// The month's income entries for the totals of usershouyimx: every page of
// the month (50 a page, the lists' largest page), stopping after MONTH_MAX_PAGES; truncated says the
// totals cover only the latest entries.
export const MONTH_PAGE_SIZE = 50
export const MONTH_MAX_PAGES = 20

export async function getMonthIncomes(month: string): Promise<{ list: IncomeEntry[]; truncated: boolean }> {
  const list: IncomeEntry[] = []
  for (let page = 1; page <= MONTH_MAX_PAGES; page++) {
    const p = await api.get<Page<IncomeEntry>>('/api/app/mine/iIncomes', { month, pageNumber: page, pageSize: MONTH_PAGE_SIZE })
    list.push(...p.list)
    if (!p.hasMore) return { list, truncated: false }
  }
  return { list, truncated: true }
}

export function useMonthIncomes(month: string, token: string | null) {
  return useQuery({
    queryKey: withdrawKeys.incomeMonth(month, token),
    queryFn: () => getMonthIncomes(month),
    enabled: token != null,
  })
}

// GET mine/income/summary?month=: what can be withdrawn now, what is still
// pending (commission and creator earnings not settled yet), the refund
// debt later earnings pay off first, and the month's figures by source.
export function getIncomeSummary(month: string): Promise<IncomeSummary> {
  return api.get<IncomeSummary>('/api/app/mine/income/summary', { month: month || undefined })
}

export function useIncomeSummary(month: string, token: string | null) {
  return useQuery({
    queryKey: withdrawKeys.incomeSummary(month, token),
    queryFn: () => getIncomeSummary(month),
    enabled: token != null,
  })
}
