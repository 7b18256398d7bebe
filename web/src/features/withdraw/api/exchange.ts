// POST /api/app/mine/goldExchange: income (cents) to coins at the
// configured rate (registered users only, idempotent).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { walletKeys, type WalletSummary } from '@/lib/wallet'
import { withdrawKeys } from '@/features/withdraw/keys'

export interface ExchangeResult {
  coins: number
  taken: number // cents that left the income (what the coins cost)
  wallet: WalletSummary
}

export function postExchange(body: { amount: number; idempotencyKey: string }): Promise<ExchangeResult> {
  return api.post<ExchangeResult>('/api/app/mine/goldExchange', body)
}

// exchangeCoins is what an amount of income buys: floor(cents*rate/100),
// as the server computes it.
export function exchangeCoins(cents: number, rate: number): number {
  return Math.floor((cents * rate) / 100)
}

// exchangeTaken is what those coins cost, the only income that leaves:
// ceil(coins*100/rate), never more than the amount asked (5.55 元 at 10
// coins a yuan buys 55 coins for 5.50 元).
export function exchangeTaken(coins: number, rate: number): number {
  return rate > 0 ? Math.ceil((coins * 100) / rate) : 0
}

export function useExchange() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: postExchange,
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: walletKeys.all })
      void qc.invalidateQueries({ queryKey: withdrawKeys.incomeAll() })
      void qc.invalidateQueries({ queryKey: withdrawKeys.billAll() })
    },
  })
}
