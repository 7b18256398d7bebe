// The withdraw feature's query keys. Everything here is personal, so every
// key carries the token. The wallet summary's key is the shared one in
// src/lib/wallet.ts: a withdrawal or an exchange refreshes it for every page.
import type { ActType } from './types'

export const withdrawKeys = {
  all: ['withdraw'] as const,
  accounts: (actType: ActType, token: string | null) => [...withdrawKeys.all, 'accounts', actType, token] as const,
  accountsAll: () => [...withdrawKeys.all, 'accounts'] as const,
  orders: (token: string | null) => [...withdrawKeys.all, 'orders', token] as const,
  bill: (type: string, month: string, token: string | null) => [...withdrawKeys.all, 'bill', type, month, token] as const,
  income: (type: string, month: string, token: string | null) => [...withdrawKeys.all, 'income', type, month, token] as const,
  incomeMonth: (month: string, token: string | null) => [...withdrawKeys.all, 'income', 'month', month, token] as const,
  incomeAll: () => [...withdrawKeys.all, 'income'] as const,
  incomeSummary: (month: string, token: string | null) => [...withdrawKeys.all, 'income', 'summary', month, token] as const,
  billAll: () => [...withdrawKeys.all, 'bill'] as const,
  rchg: (token: string | null) => [...withdrawKeys.all, 'rchg', token] as const,
}
