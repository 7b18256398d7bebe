import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryStorage } from '@/lib/testing'
import { setToken } from '@/lib/storage'

vi.mock('@/lib/toast', () => ({ toast: { text: vi.fn() } }))

const { getBill, getMonthIncomes, getOrders, MONTH_MAX_PAGES } = await import('./records')
const { postWithdraw, getWithdrawals } = await import('./withdraw')
const { addAccount, deleteAccount, getAccounts } = await import('./payout-accounts')
const { postExchange } = await import('./exchange')

const calls: { url: string; method: string; body: unknown; headers: Record<string, string> }[] = []
let reply: (url: URL) => unknown = () => ({})

beforeEach(() => {
  vi.stubGlobal('localStorage', new MemoryStorage())
  vi.stubGlobal('document', { cookie: '' })
  calls.length = 0
  setToken('tok')
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      const u = new URL(url, 'http://x')
      calls.push({ url: u.pathname + u.search, method: init.method ?? 'GET', body: init.body ? JSON.parse(String(init.body)) : null, headers: init.headers as Record<string, string> })
      return new Response(JSON.stringify({ code: 200, tip: '', msg: '', data: reply(u) }), { status: 200, headers: { 'Content-Type': 'application/json' } })
    }),
  )
})

afterEach(() => {
  vi.unstubAllGlobals()
})

const page = (list: unknown[], pageNumber: number, hasMore: boolean) => ({ list, total: 0, pageNumber, pageSize: 20, hasMore })

describe('record calls', () => {
  it('sends type and month only when set, with the page', async () => {
    reply = () => page([], 1, false)
    await getBill('', '', 1)
    await getBill('topup', '2026-11', 2)
    await getOrders(3)
    expect(calls.map((c) => c.url)).toEqual([
      '/api/app/mine/zhangdan?pageNumber=1&pageSize=20',
      '/api/app/mine/zhangdan?month=2026-11&pageNumber=2&pageSize=20&type=topup',
      '/api/app/mine/rchg/order?pageNumber=3&pageSize=20',
    ])
    expect(calls[0].headers.Authorization).toBe('Bearer tok')
  })

  it('reads every page of a month for the totals, and stops at the cap', async () => {
    reply = (u) => {
      const n = Number(u.searchParams.get('pageNumber'))
      return page([{ id: n, type: 'commission', amount: 100 }], n, n < 3)
    }
    const r = await getMonthIncomes('2026-11')
    expect(r.list.map((e) => e.id)).toEqual([1, 2, 3])
    expect(r.truncated).toBe(false)
    expect(calls[0].url).toBe('/api/app/mine/iIncomes?month=2026-11&pageNumber=1&pageSize=50')

    calls.length = 0
    reply = (u) => page([{ id: Number(u.searchParams.get('pageNumber')) }], Number(u.searchParams.get('pageNumber')), true)
    const capped = await getMonthIncomes('2026-10')
    expect(calls).toHaveLength(MONTH_MAX_PAGES)
    expect(capped.truncated).toBe(true)
  })
})

describe('money calls', () => {
  it('withdraw sends cents, the account, the password and the key', async () => {
    reply = () => ({ orderNo: 'W1', status: 'pending' })
    const w = await postWithdraw({ amount: 12_345, accountID: 7, passWord: 'secret12', idempotencyKey: 'wd-abcdefgh' })
    expect(w.orderNo).toBe('W1')
    expect(calls[0]).toMatchObject({
      url: '/api/app/withdraw',
      method: 'POST',
      body: { amount: 12_345, accountID: 7, passWord: 'secret12', idempotencyKey: 'wd-abcdefgh' },
    })
    await getWithdrawals(2)
    expect(calls[1].url).toBe('/api/app/withdraw/order?pageNumber=2&pageSize=20')
  })

  it('payout accounts: list by type, add with the password, delete by id', async () => {
    reply = () => []
    await getAccounts(2)
    await addAccount({ actType: 2, network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', passWord: 'pw' })
    await deleteAccount(9)
    await postExchange({ amount: 500, idempotencyKey: 'ex-abcdefgh' })
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /api/app/mine/txnact/bank/get?actType=2',
      'POST /api/app/mine/txnact/bank/add',
      'DELETE /api/app/mine/txnact/del?id=9',
      'POST /api/app/mine/goldExchange',
    ])
    expect(calls[1].body).toEqual({ actType: 2, network: 'TRC20', address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t', passWord: 'pw' })
    expect(calls[3].body).toEqual({ amount: 500, idempotencyKey: 'ex-abcdefgh' })
  })
})
