// The shapes of the money-out and record pages (docs/api.md, *Wallet*).
// Money is integer cents, coins integers; times are RFC 3339 strings.

export type ActType = 1 | 2 // 1 bank card, 2 USDT address

export interface PayoutAccount {
  id: number
  actType: ActType
  bankName: string
  holder: string
  number: string // masked: "**** **** **** 1234"
  network: string // "TRC20" | "ERC20" for USDT, else ""
  address: string // masked: first 6 and last 4
  createdAt: string
}

export type WithdrawalStatus = 'pending' | 'paid' | 'rejected'

export interface Withdrawal {
  orderNo: string
  amount: number
  fee: number
  net: number
  status: WithdrawalStatus
  reason: string
  account: PayoutAccount
  createdAt: string
  decidedAt: string | null
}

// One line of the coin bill (zhangdan): amount in coins, signed.
export interface BillEntry {
  id: number
  type: string
  title: string
  amount: number
  balance: number
  ref: string
  createdAt: string
}

// One line of the income account (iIncomes): amount in cents, signed.
export type IncomeEntry = BillEntry

// GET mine/income/summary (cents).
export interface IncomeSummary {
  withdrawableCents: number // the income balance
  pendingCents: number // commission and creator earnings not settled yet
  debtCents: number // refund debt still to pay off
  month: { commissionCents: number; creatorCents: number; withdrawCents: number; exchangeCents: number }
}

export type OrderStatus = 'pending' | 'paid' | 'cancelled' | 'expired' | 'refunded'

export interface Order {
  orderNo: string
  productType: 'coins' | 'vip'
  productID: number
  title: string
  amount: number
  coins: number
  bonus: number
  vipLevel: number // 0 for coins
  vipDays: number
  payType: string
  status: OrderStatus
  payUrl: string
  createdAt: string
  paidAt: string | null
  expiresAt: string
}

// The types each bill filters by, in chip order: the server's lists
// (internal/wallet/bills.go, whose test compares them with these).
export const COIN_BILL_TYPES = ['topup', 'bonus', 'checkin', 'task', 'prize', 'invite', 'code', 'buy_video', 'buy_gallery', 'buy_post', 'buy_vip', 'exchange', 'refund', 'adjust'] as const
export const INCOME_TYPES = ['commission', 'creator', 'withdraw', 'withdraw_return', 'exchange', 'adjust'] as const
