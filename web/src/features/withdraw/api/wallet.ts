// GET /api/app/mine/wallet: balances, limits and the fee. Stored under the
// shared wallet key, so a purchase elsewhere refreshes it here too.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { WALLET_SUMMARY_PATH, walletKeys, type WalletSummary } from '@/lib/wallet'

export function getWallet(): Promise<WalletSummary> {
  return api.get<WalletSummary>(WALLET_SUMMARY_PATH)
}

export function walletQueryOptions(token: string | null) {
  return queryOptions({ queryKey: walletKeys.summary(token), queryFn: getWallet, enabled: token != null })
}

export function useWallet(token: string | null) {
  return useQuery(walletQueryOptions(token))
}
