// The wallet feature's query keys (see catalog/keys.ts for why a factory).
// Everything here is personal (products depend on the account's age, orders
// and tiers are the caller's), so every key carries the token.
export const payPageKeys = {
  all: ['walletPay'] as const,
  vipProducts: (token: string | null) => [...payPageKeys.all, 'vipProducts', token] as const,
  tiro: (token: string | null) => [...payPageKeys.all, 'tiro', token] as const,
  packages: (token: string | null) => [...payPageKeys.all, 'packages', token] as const,
  order: (orderNo: string, token: string | null) => [...payPageKeys.all, 'order', orderNo, token] as const,
}
