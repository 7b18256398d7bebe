// GET /api/app/mine/creator/earnings?pageNumber&pageSize (docs/api.md,
// *Earnings*): what my paid posts, videos and galleries earned me, one
// line per sale, newest first, and beside the page a summary (is my
// creator application approved, my share, pending and settled totals). A
// guest gets 403 "请先注册账号".
import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { EarningState } from '@/lib/earn'
import { nextPage, type Page } from '@/lib/page'
import { profileKeys } from '@/features/profile/keys'

export type EarningKind = 'video' | 'post' | 'gallery'

export interface CreatorEarning {
  id: number
  kind: EarningKind
  itemID: number
  title: string
  coins: number // what the buyer paid
  shareBps: number
  amountCents: number
  state: EarningState
  settleAt: string
  createdAt: string
}

export interface CreatorSummary {
  approved: boolean
  shareBps: number
  pendingCents: number
  settledCents: number
  items: number
}

export interface EarningsPage extends Page<CreatorEarning> {
  summary: CreatorSummary
}

export const EARNINGS_PAGE_SIZE = 20

export function getEarnings(pageNumber: number, pageSize = EARNINGS_PAGE_SIZE): Promise<EarningsPage> {
  return api.get<EarningsPage>('/api/app/mine/creator/earnings', { pageNumber, pageSize })
}

// The summary alone (for /myhome): a page of one line carries it.
export function useCreatorSummary(token: string | null) {
  return useQuery({
    queryKey: profileKeys.earningsSummary(token),
    queryFn: () => getEarnings(1, 1).then((p) => p.summary),
    enabled: token != null,
  })
}

export function useCreatorEarnings(token: string | null) {
  return useInfiniteQuery({
    queryKey: profileKeys.earnings(token),
    queryFn: ({ pageParam }) => getEarnings(pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}

// itemPath: where a sold item opens.
export function itemPath(kind: EarningKind, id: number): string {
  return kind === 'video' ? `/detail/${id}` : kind === 'gallery' ? `/gallery/${id}` : `/cdetail/${id}`
}
