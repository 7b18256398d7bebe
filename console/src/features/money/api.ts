// Money (docs/api.md *Wallet → Operator calls*): every user's orders with
// their provider callbacks, marking a missed payment paid and refunds; the
// withdrawal review queue with risk signals, two-person approval and bulk
// approval; a user's wallet (coins, income and points) and adjustments.
// Calls that move money need a fresh step-up: the client asks for it.
import { api } from '@/lib/client'
import type { Timestamp } from '@/lib/time'

// A keyset page: nextCursor opens the next one (null on the last).
export interface CursorPage<T> {
  list: T[]
  hasMore: boolean
  nextCursor: string | null
}

export const ORDER_STATUSES = ['pending', 'paid', 'cancelled', 'expired', 'refunded'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]
// Providers as orders name them: a gateway ("epay": each of its payTypes) or one payType.
export const PROVIDERS = ['sandbox', 'epay', 'epay_alipay', 'epay_wxpay', 'epay_qqpay', 'stripe'] as const

export interface Order {
  orderNo: string
  uid: number
  productType: 'coins' | 'vip'
  productID: number
  title: string
  amount: number // cents
  coins: number
  bonus: number
  vipLevel: number
  vipDays: number
  payType: string
  status: OrderStatus
  tradeNo: string
  createdAt: Timestamp
  paidAt: Timestamp | null
  expiresAt: Timestamp
}

export interface Callback {
  id: number
  provider: string
  orderNo: string
  outcome: string
  detail: string
  createdAt: Timestamp
}

export interface OrderFilter {
  status?: string
  uid?: number
  orderNo?: string
  provider?: string
  from?: string // YYYY-MM-DD, Asia/Shanghai
  to?: string
}

export const PAGE = 20

export const getOrders = (f: OrderFilter, cursor: string | null) =>
  api.get<CursorPage<Order>>('/api/admin/orders', { ...f, cursor: cursor ?? undefined, pageSize: PAGE })
export const getCallbacks = (orderNo: string) => api.get<Callback[]>('/api/admin/orders/callbacks', { orderNo })
export const markPaid = (orderNo: string, reason: string) => api.post<Order>('/api/admin/orders/paid', { orderNo, reason })
export const refundOrder = (orderNo: string, reason: string) => api.post<Order>('/api/admin/orders/refund', { orderNo, reason })

export type WithdrawStatus = 'pending' | 'paid' | 'rejected'

export interface PayoutAccount {
  id: number
  actType: number // 1 bank card, 2 USDT
  bankName: string
  holder: string
  number: string
  network: string
}

export interface Withdrawal {
  orderNo: string
  uid: number
  amount: number
  fee: number
  net: number
  status: WithdrawStatus
  reason: string
  account: PayoutAccount
  createdAt: Timestamp
  decidedAt: Timestamp | null
  operatorID: number
  firstApproverID: number
  firstApprovedAt: Timestamp | null
  awaitingSecond: boolean
  operatorName: string
  firstApproverName: string
}

export interface Tally {
  count: number
  cents: number
}

export interface Risk {
  orderNo: string
  uid: number
  registeredAt: Timestamp
  registered: boolean
  accountAgeDays: number
  topUps7d: Tally
  topUps30d: Tally
  incomeSources: { kind: string; cents: number; count: number }[]
  paid: Tally
  rejected: Tally
  pending: Tally
  payoutAccountAgeDays: number
  sharedPayoutUsers: number
}

export interface Decision {
  withdrawal: Withdrawal
  changed: boolean
  awaitingSecond: boolean
}

export interface BulkItem {
  orderNo: string
  changed: boolean
  awaitingSecond: boolean
  status: string
  error: string
}

export interface WithdrawSettings {
  twoPersonAbove: number
  updatedBy: number
  updatedAt: Timestamp
}

export const getWithdrawals = (status: WithdrawStatus | '', uid: number | undefined, cursor: string | null) =>
  api.get<CursorPage<Withdrawal>>('/api/admin/withdrawals', { status: status || undefined, uid, cursor: cursor ?? undefined, pageSize: PAGE })
export const getRisk = (orderNo: string) => api.get<Risk>('/api/admin/withdrawals/risk', { orderNo })
export const approve = (orderNo: string) => api.post<Decision>('/api/admin/withdrawals/approve', { orderNo })
export const approveMany = (orderNos: string[]) => api.post<{ results: BulkItem[] }>('/api/admin/withdrawals/approve', { orderNos })
export const reject = (orderNo: string, reason: string) => api.post<Decision>('/api/admin/withdrawals/reject', { orderNo, reason })
export const getWithdrawSettings = () => api.get<WithdrawSettings>('/api/admin/withdrawals/settings')
export const setWithdrawSettings = (twoPersonAbove: number) => api.post<WithdrawSettings>('/api/admin/withdrawals/settings', { twoPersonAbove })

export type Account = 'coins' | 'income' | 'points'
export const ACCOUNTS: Account[] = ['coins', 'income', 'points']

export interface Entry {
  id: number
  account: Account
  type: string
  amount: number
  balance: number
  ref: string
  memo: string
  operatorID: number
  createdAt: Timestamp
}

export interface WalletView {
  wallet: { coins: number; income: number; incomeFrozen: number }
  points: number
  entries: Entry[]
  hasMore: boolean
  nextCursor: string | null
}

export const getWallet = (uid: number, account: Account | '', cursor: string | null) =>
  api.get<WalletView>('/api/admin/wallet', { uid, account: account || undefined, cursor: cursor ?? undefined, pageSize: 50 })
export const adjust = (v: { uid: number; account: Account; amount: number; reason: string; idempotencyKey: string }) =>
  api.post<{ wallet: WalletView['wallet']; points?: number }>('/api/admin/wallet/adjust', v)

export const moneyKeys = {
  all: ['money'] as const,
  orders: (f: OrderFilter, cursor: string | null) => ['money', 'orders', f, cursor] as const,
  callbacks: (orderNo: string) => ['money', 'callbacks', orderNo] as const,
  withdrawals: (status: string, uid: number | undefined, cursor: string | null) => ['money', 'withdrawals', status, uid, cursor] as const,
  risk: (orderNo: string) => ['money', 'risk', orderNo] as const,
  settings: ['money', 'withdraw-settings'] as const,
  wallet: (uid: number, account: string, cursor: string | null) => ['money', 'wallet', uid, account, cursor] as const,
}
