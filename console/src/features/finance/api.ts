// Money (docs/api.md *Operator calls* under Wallet and Earnings, and
// *Finance settings and reconciliation*): coin packages, VIP cards, coupon
// grants, payment providers' switches and health, commission settings,
// promoter applications, the daily reconciliation and the ledger check.
// Calls that move money are step-up on the server: the client's step-up
// prompt (app/StepUp.tsx) asks for a code and sends them again.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

export interface CoinPackage {
  id: number
  name: string
  coins: number
  bonus: number
  price: number // cents
  originalPrice: number
  label: string
  sort: number
  active: boolean
}
export type CoinPackageInput = Omit<CoinPackage, 'id'> & { id?: number }

export interface VipCard {
  id: number
  level: number
  name: string
  days: number
  price: number // cents
  originalPrice: number
  coins: number
  label: string
  newUser: boolean
  coupons: number
  sort: number
  active: boolean
}
export type VipCardInput = Omit<VipCard, 'id'> & { id?: number }

export interface CouponGrant {
  uid: number
  count: number
  days: number
  reason: string
  idempotencyKey: string
}
export interface Granted {
  uid: number
  count: number
  expiresAt: Timestamp
}

export interface CallbackRecord {
  id: number
  provider: string
  orderNo: string
  outcome: string
  detail: string
  createdAt: Timestamp
}

export interface Provider {
  name: string
  title: string
  gateway: string
  enabled: boolean
  configured: boolean
  lastNotifyAt: Timestamp | null
  notifies24h: number
  failures24h: number
  lastFailure: CallbackRecord | null
}

export type InviteReward = 'off' | 'phone' | 'payment'
export interface CommissionConfig {
  levels: number[] // bps, level 1 first
  promoterLevels: number[]
  settleDays: number
  creatorShareBps: number
  inviteReward: InviteReward
}

export type AppState = 'pending' | 'approved' | 'rejected'
export interface PromoterApplication {
  id: number
  uid: number
  account: string
  name: string
  channel: string
  contact: string
  intro: string
  state: AppState
  reason: string
  appliedAt: Timestamp
  decidedAt: Timestamp | null
  invitees: number
  paidCents: number
}
export interface NumberPage<T> {
  list: T[]
  total: number
  pageNumber: number
  pageSize: number
  hasMore: boolean
}

export interface ReconPair {
  records: number
  ledger: number
  diff: number
}
export interface ProviderRecon extends ReconPair {
  payType: string
  paid: number
  refunded: number
}
export interface ReconDay {
  date: string
  ok: boolean
  topup: ReconPair & { providers: ProviderRecon[] }
  payouts: ReconPair
  commission: ReconPair
  creator: ReconPair
}
export interface Reconciliation {
  from: string
  to: string
  timezone: string
  days: ReconDay[]
}

export interface CheckResult {
  ok: boolean
  movements: number
  entries: number
  breaches: string[]
  checkedAt: Timestamp
}

export const financeKeys = {
  all: ['finance'] as const,
  packages: ['finance', 'packages'] as const,
  vip: ['finance', 'vip'] as const,
  providers: ['finance', 'providers'] as const,
  commission: ['finance', 'commission'] as const,
  promoters: (state: string, page: number) => ['finance', 'promoters', state, page] as const,
  recon: (from: string, to: string) => ['finance', 'recon', from, to] as const,
}

export const getPackages = () => api.get<CoinPackage[]>('/api/admin/currencys')
export const savePackage = (p: CoinPackageInput) => api.post<CoinPackage>('/api/admin/currencys', p)
export const getVipCards = () => api.get<VipCard[]>('/api/admin/vip/products')
export const saveVipCard = (c: VipCardInput) => api.post<VipCard>('/api/admin/vip/products', c)
export const grantCoupons = (g: CouponGrant) => api.post<Granted>('/api/admin/coupons/grant', g)
export const getProviders = () => api.get<Provider[]>('/api/admin/providers')
export const switchProvider = (name: string, enabled: boolean) =>
  api.post<{ provider: Provider; changed: boolean }>('/api/admin/providers', { name, enabled })
export const getCommission = () => api.get<CommissionConfig>('/api/admin/commission/config')
export const saveCommission = (c: CommissionConfig) => api.post<CommissionConfig>('/api/admin/commission/config', c)
export const getPromoters = (state: string, pageNumber: number) =>
  api.get<NumberPage<PromoterApplication>>('/api/admin/promoters', { state, pageNumber, pageSize: 20 })
export const decidePromoter = (id: number, approve: boolean, reason: string) =>
  api.post<{ application: PromoterApplication; changed: boolean }>('/api/admin/promoters/decide', { id, approve, reason })
export const getReconciliation = (from: string, to: string) => api.get<Reconciliation>('/api/admin/reconciliation', { from, to })
export const runLedgerCheck = () => api.post<CheckResult>('/api/admin/wallet/check', {})
