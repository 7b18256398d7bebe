// The promoter programme (docs/api.md, *Earnings*): GET mine/promoter (my
// state, tier, rates and commission totals), POST mine/promoter/apply,
// GET mine/promoter/stats?period= (promotion data of a day, week or month)
// and GET mine/commissions?state= (my commission, paged). A guest gets 403
// "请先注册账号" on each; the pages show the registration prompt for it.
import { infiniteQueryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { EarningState } from '@/lib/earn'
import { nextPage, type Page } from '@/lib/page'
import { inviteKeys, type Period } from '@/features/invite/keys'

export type PromoterState = 'none' | 'pending' | 'approved' | 'rejected'
export type Tier = 'member' | 'promoter'

export interface PromoterApplication {
  channel: string
  contact: string
  intro: string
  appliedAt: string
  decidedAt: string | null
}

export interface Promoter {
  state: PromoterState
  reason: string // "" unless rejected
  application: PromoterApplication | null
  tier: Tier
  rates: number[] // bps per level, level 1 first: my tier's
  memberRates: number[]
  promoterRates: number[]
  settleDays: number
  pendingCents: number
  settledCents: number
  reversedCents: number
  inviteCode: string
  link: string
}

export interface PromoterInput {
  channel: string
  contact: string
  intro: string
}

export interface DayStats {
  date: string // YYYY-MM-DD, Asia/Shanghai
  visits: number
  registrations: number
  payers: number
  paidCents: number
  commissionCents: number
}

export interface PromoterStats extends Omit<DayStats, 'date'> {
  period: Period
  from: string // YYYY-MM-DD, the window's first day (Asia/Shanghai)
  to: string // YYYY-MM-DD, its last: today
  series: DayStats[] // one per day of the window up to today, oldest first
}

export interface Commission {
  id: number
  orderNo: string // masked
  invitee: string // masked
  level: number
  orderCents: number
  rateBps: number
  amountCents: number
  state: EarningState
  settleAt: string
  createdAt: string
}

export const COMMISSION_PAGE_SIZE = 20

export function usePromoter(token: string | null) {
  return useQuery({
    queryKey: inviteKeys.promoter(token),
    queryFn: () => api.get<Promoter>('/api/app/mine/promoter'),
    enabled: token != null,
  })
}

// Silent: the form shows a refusal's tip (pending, already a promoter, a
// field out of range, too many a day) under its button.
export function useApplyPromoter(token: string | null) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (body: PromoterInput) => api.post<Promoter>('/api/app/mine/promoter/apply', body),
    onSuccess: (p) => qc.setQueryData(inviteKeys.promoter(token), p),
    // A refusal may mean the state moved on (another device applied, an
    // operator decided): read it again.
    onError: () => void qc.invalidateQueries({ queryKey: inviteKeys.promoter(token) }),
  })
}

export function usePromoterStats(period: Period, token: string | null) {
  return useQuery({
    queryKey: inviteKeys.stats(period, token),
    queryFn: () => api.get<PromoterStats>('/api/app/mine/promoter/stats', { period }),
    enabled: token != null,
  })
}

export function getCommissions(state: EarningState | '', pageNumber: number): Promise<Page<Commission>> {
  return api.get<Page<Commission>>('/api/app/mine/commissions', { state: state || undefined, pageNumber, pageSize: COMMISSION_PAGE_SIZE })
}

export function useCommissions(state: EarningState | '', token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: inviteKeys.commissions(state, token),
      queryFn: ({ pageParam }) => getCommissions(state, pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}
