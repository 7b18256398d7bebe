// Invitations (docs/api.md, *Invitations*): POST userinvite/info (the
// caller's code, link, counts, inviter), POST mine/inviteBind {code},
// POST userinvite/userlist {pageNumber, pageSize} (the invitees, paged).
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { inviteKeys } from '@/features/invite/keys'

export { inviteKeys }

export interface InvitePerson {
  uid: number
  name: string
  portrait: string
}

export interface InviteInfo {
  code: string
  link: string
  inviteCount: number
  registeredCount: number
  todayCount: number
  weekCount: number
  rewardedCoins: number
  rewardCoins: number
  windowDays: number
  inviter: InvitePerson | null
  canBind: boolean
  rules: string[]
}

export type RewardState = 'pending' | 'rewarded' | 'device' | 'capped' | 'off'

export interface Invitee {
  uid: number
  name: string
  portrait: string
  boundAt: string
  registered: boolean
  rewardState: RewardState
  rewardCoins: number
  paidCents: number // the invitee's paid orders
  commissionCents: number // commission I earned from them, not reversed
}

export const INVITEE_PAGE_SIZE = 20

export function getInviteInfo(): Promise<InviteInfo> {
  return api.post<InviteInfo>('/api/app/userinvite/info', {})
}

export function useInviteInfo(token: string | null) {
  return useQuery(queryOptions({ queryKey: inviteKeys.info(token), queryFn: getInviteInfo, enabled: token != null }))
}

// Toasts: a refusal (unknown code, already bound) shows the server's tip.
export function bindInviter(code: string): Promise<{ inviter: InvitePerson }> {
  return api.post<{ inviter: InvitePerson }>('/api/app/mine/inviteBind', { code }, { toast: true })
}

export function getInvitees(pageNumber: number): Promise<Page<Invitee>> {
  return api.post<Page<Invitee>>('/api/app/userinvite/userlist', { pageNumber, pageSize: INVITEE_PAGE_SIZE })
}

export function useInvitees(token: string | null) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: inviteKeys.invitees(token),
      queryFn: ({ pageParam }) => getInvitees(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null,
    }),
  )
}
