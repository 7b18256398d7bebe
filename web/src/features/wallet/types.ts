// Shapes of the wallet's paying calls (docs/api.md, *Top-up orders*, *VIP*).
// Prices are integer cents, coins integers.

export interface PayType {
  code: string
  name: string
}

export interface CoinPackage {
  id: number
  type: number
  name: string
  coins: number
  bonus: number
  price: number
  originalPrice: number
  label: string
  payTypes: PayType[]
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
  payType: string
  status: OrderStatus
  payUrl: string
  createdAt: string
  paidAt: string | null
  expiresAt: string
}

export interface VipProduct {
  id: number
  level: 1 | 2
  name: string
  days: number
  price: number
  originalPrice: number
  coins: number
  label: string
  newUser: boolean
  coupons: number
}

export interface VipProducts {
  list: VipProduct[]
  tiers: { vip: string | null; svip: string | null }
  // The providers a card is paid through with money.
  payTypes: PayType[]
}

export interface TiroCountdown {
  isNew: boolean
  secondsLeft: number
  offer: VipProduct | null // null once the account or this phone has had the offer
  used: boolean
}
