// GET /api/app/mine/currencys (coin packages), POST /api/app/mine/topay
// (an order and its pay URL), GET /api/app/mine/rchg/order?orderNo= (the
// result page polls it), and payment error reports (spec §7).
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, APP_VERSION } from '@/lib/api'
import type { Page } from '@/lib/page'
import { currentPlatform } from '@/lib/platform'
import { payPageKeys } from '@/features/wallet/keys'
import { pollDelay } from '@/features/wallet/result'
import type { CoinPackage, Order } from '@/features/wallet/types'

export function getPackages(): Promise<CoinPackage[]> {
  return api.get<CoinPackage[]>('/api/app/mine/currencys', { type: 1 })
}

export function usePackages(token: string | null) {
  return useQuery(queryOptions({ queryKey: payPageKeys.packages(token), queryFn: getPackages, enabled: token != null }))
}

export interface TopayBody {
  productType: 'coins' | 'vip'
  productID: number
  payType: string
}

export function topay(body: TopayBody, idempotencyKey: string): Promise<Order> {
  return api.post<Order>('/api/app/mine/topay', { ...body, idempotencyKey })
}

// getOrder reads one of the caller's orders; null when there is none of
// that number (another user's looks the same).
export async function getOrder(orderNo: string): Promise<Order | null> {
  const page = await api.get<Page<Order>>('/api/app/mine/rchg/order', { orderNo, pageNumber: 1, pageSize: 1 })
  return page.list.find((o) => o.orderNo === orderNo) ?? null
}

// useOrder polls an order while it is pending, ever more slowly, and stops
// after POLL_LIMIT tries (the page then says confirmation is slow).
export const POLL_LIMIT = 40

export function useOrder(orderNo: string, token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: payPageKeys.order(orderNo, token),
      queryFn: () => getOrder(orderNo),
      enabled: token != null && orderNo !== '',
      refetchInterval: (q) => {
        const o = q.state.data
        if (o && o.status !== 'pending') return false
        const n = q.state.dataUpdateCount + q.state.errorUpdateCount
        return n >= POLL_LIMIT ? false : pollDelay(n)
      },
      refetchIntervalInBackground: false,
      retry: 1,
    }),
  )
}

// printable keeps line breaks and turns other control characters into
// spaces (the server refuses them in most fields).
export function printable(s: string): string {
  return Array.from(s, (ch) => {
    const c = ch.codePointAt(0)!
    return ch === '\n' || ch === '\r' || !(c < 0x20 || (c >= 0x7f && c <= 0x9f)) ? ch : ' '
  }).join('')
}

// cutBytes keeps at most n bytes of UTF-8, never splitting a character
// (the server bounds the report's fields in bytes).
export function cutBytes(s: string, n: number): string {
  let used = 0
  let out = ''
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    const len = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4
    if (used + len > n) break
    used += len
    out += ch
  }
  return out
}

export interface PayErrorReport {
  payname: string
  payid: string
  paytype: string
  payadds: string
  emsg: string
}

// reportPayError stores a payment failure for operators (POST
// /api/app/report/error, kind "payment"). It never throws: a report that
// fails must not become a second error for the user.
export async function reportPayError(r: PayErrorReport, userid: number | null): Promise<void> {
  try {
    await api.post(
      '/api/app/report/error',
      {
        kind: 'payment',
        appname: 'Prima',
        appv: APP_VERSION,
        dev: currentPlatform(),
        payname: cutBytes(r.payname, 128),
        payid: cutBytes(r.payid, 128),
        paytype: cutBytes(r.paytype, 128),
        payadds: cutBytes(r.payadds, 128),
        emsg: cutBytes(printable(r.emsg), 1024),
        userid: userid ?? undefined,
      },
    )
  } catch {
    // dropped: diagnostics only
  }
}
