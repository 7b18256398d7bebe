import { describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { moneyMoved } from '@/lib/purchase'
import { walletKeys } from '@/lib/wallet'

vi.mock('@/stores/user', () => ({ useUserStore: { getState: () => ({ token: null }), subscribe: () => () => undefined } }))
const { refetchMoney, refetchForNotice, startRealtime } = await import('./realtime')

// seed puts one query under each key and reports which are stale after fn.
function staleAfter(qc: QueryClient, keys: readonly (readonly unknown[])[], fn: () => void) {
  for (const k of keys) qc.setQueryData(k, 1)
  fn()
  return keys.map((k) => qc.getQueryState(k)?.isInvalidated ?? false)
}

describe('money moved', () => {
  const keys = [
    walletKeys.summary('t'),
    ['mine', 'info', 't'],
    ['purchase', 'backpack', 't'],
    ['walletPay', 'vipProducts', 't'],
    ['video', 'detail', 3, 't'],
    ['gallery', 'detail', 4, 't'],
    ['catalog', 'sections'], // a public list: untouched
  ] as const

  it('marks balances, the user, wallet pages and details stale, nothing else', () => {
    const qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchMoney(qc))).toEqual([true, true, true, true, true, true, false])
  })

  it('a purchase anywhere (moneyMoved) reaches the query cache once the app has started', () => {
    const qc = new QueryClient()
    startRealtime(qc) // no WebSocket under node: only the money listener
    expect(staleAfter(qc, keys, () => moneyMoved('buy'))).toEqual([true, true, true, true, true, true, false])
  })
})

describe('notices', () => {
  const keys = [['support', 'feedback', 't'], ['support', 'settled', 't'], ['support', 'source'], walletKeys.summary('t'), ['people', 'ext', 'me', 't'], ['profile', 'list', 'fans', 'me', 't']] as const

  it('a feedback reply refetches my feedback, a review my application, a follower the counts and lists, nothing else', () => {
    expect(staleAfter(new QueryClient(), keys, () => refetchForNotice(new QueryClient(), null))).toEqual([false, false, false, false, false, false])
    let qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'system', kind: 'feedback_reply' }))).toEqual([true, false, false, false, false, false])
    qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'system', kind: 'settled' }))).toEqual([false, true, false, false, false, false])
    qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'interaction', kind: 'follow' }))).toEqual([false, false, false, false, true, true])
    qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'system', kind: 'withdraw' }))).toEqual([false, false, false, false, false, false])
  })
})

describe('earnings', () => {
  const keys = [
    ['invite', 'earn', 'promoter', 't'],
    ['invite', 'earn', 'commissions', '', 't'],
    ['invite', 'earn', 'stats', 'week', 't'],
    ['profile', 'earnings', 't'],
    ['profile', 'earnings', 'summary', 't'],
    ['withdraw', 'income', 'summary', '', 't'],
    ['invite', 'info', 't'], // the invite counts: not money
  ] as const

  it('money moving marks commission, promotion data, creator earnings and the income summary stale', () => {
    const qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchMoney(qc))).toEqual([true, true, true, true, true, true, false])
  })

  it('a promoter decision refetches the promoter pages; a creator decision the creator earnings', () => {
    let qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'system', kind: 'promoter' }))).toEqual([true, true, true, false, false, false, false])
    qc = new QueryClient()
    expect(staleAfter(qc, keys, () => refetchForNotice(qc, { category: 'system', kind: 'settled' }))).toEqual([false, false, false, true, true, false, false])
  })
})
