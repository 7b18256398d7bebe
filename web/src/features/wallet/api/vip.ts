// GET /api/app/vip/product, GET /api/app/vip/tiroCountdown, POST
// /api/app/vip/buy (coins).
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { UserInfo } from '@/lib/user'
import type { WalletSummary } from '@/lib/wallet'
import { payPageKeys } from '@/features/wallet/keys'
import type { TiroCountdown, VipProducts } from '@/features/wallet/types'

export function getVipProducts(): Promise<VipProducts> {
  return api.get<VipProducts>('/api/app/vip/product')
}

export function useVipProducts(token: string | null) {
  return useQuery(queryOptions({ queryKey: payPageKeys.vipProducts(token), queryFn: getVipProducts, enabled: token != null }))
}

// getTiro asks how long the new-user offer lasts; seconds is the client's
// own countdown (the server only validates it).
export function getTiro(seconds?: number): Promise<TiroCountdown> {
  const s = seconds == null ? undefined : Math.max(0, Math.min(86400, Math.floor(seconds)))
  return api.get<TiroCountdown>('/api/app/vip/tiroCountdown', { seconds: s })
}

export function useTiro(token: string | null) {
  return useQuery(queryOptions({ queryKey: payPageKeys.tiro(token), queryFn: () => getTiro(), enabled: token != null }))
}

export interface VipBuyResult {
  user: UserInfo
  wallet: WalletSummary
}

export function buyVip(productID: number, idempotencyKey: string): Promise<VipBuyResult> {
  return api.post<VipBuyResult>('/api/app/vip/buy', { productID, idempotencyKey })
}
