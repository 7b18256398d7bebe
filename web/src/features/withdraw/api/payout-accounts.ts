// Payout accounts: GET /api/app/mine/txnact/bank/get?actType=, POST
// mine/txnact/bank/add, DELETE mine/txnact/del?id= (registered users only).
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { withdrawKeys } from '@/features/withdraw/keys'
import type { ActType, PayoutAccount } from '@/features/withdraw/types'

export function getAccounts(actType: ActType): Promise<PayoutAccount[]> {
  return api.get<PayoutAccount[]>('/api/app/mine/txnact/bank/get', { actType })
}

export function accountsQueryOptions(actType: ActType, token: string | null, enabled = true) {
  return queryOptions({
    queryKey: withdrawKeys.accounts(actType, token),
    queryFn: () => getAccounts(actType),
    enabled: token != null && enabled,
  })
}

export function useAccounts(actType: ActType, token: string | null, enabled = true) {
  return useQuery(accountsQueryOptions(actType, token, enabled))
}

export type NewAccount =
  | { actType: 1; bankName: string; holder: string; number: string; passWord: string }
  | { actType: 2; network: string; address: string; passWord: string }

export function addAccount(body: NewAccount): Promise<PayoutAccount> {
  return api.post<PayoutAccount>('/api/app/mine/txnact/bank/add', body, { passwordCheck: true })
}

export function deleteAccount(id: number): Promise<{ id: number }> {
  return api.delete<{ id: number }>('/api/app/mine/txnact/del', { id })
}

export function useAddAccount() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: addAccount,
    onSuccess: () => qc.invalidateQueries({ queryKey: withdrawKeys.accountsAll() }),
  })
}

export function useDeleteAccount() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: deleteAccount,
    onSettled: () => qc.invalidateQueries({ queryKey: withdrawKeys.accountsAll() }),
  })
}
