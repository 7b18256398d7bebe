import { afterEach, describe, expect, it, vi } from 'vitest'

const post = vi.fn()
const get = vi.fn()
vi.mock('@/lib/api', () => ({
  APP_VERSION: '1.1.3',
  api: { post: (...a: unknown[]) => post(...a), get: (...a: unknown[]) => get(...a) },
}))
vi.mock('@/lib/platform', () => ({ currentPlatform: () => 'ios' }))
const { cutBytes, getOrder, getPackages, printable, reportPayError, topay } = await import('./topup')
const { buyVip, getTiro } = await import('./vip')

afterEach(() => {
  post.mockReset()
  get.mockReset()
})

const order = (orderNo: string) => ({ orderNo, status: 'pending' })

describe('top-up calls', () => {
  it('asks for the coin packages of type 1', async () => {
    get.mockResolvedValue([])
    await getPackages()
    expect(get).toHaveBeenCalledWith('/api/app/mine/currencys', { type: 1 })
  })

  it('topay sends the product, pay type and key', async () => {
    post.mockResolvedValue(order('P1'))
    await topay({ productType: 'coins', productID: 3, payType: 'sandbox' }, 'pay-12345678')
    expect(post).toHaveBeenCalledWith(
      '/api/app/mine/topay',
      { productType: 'coins', productID: 3, payType: 'sandbox', idempotencyKey: 'pay-12345678' },
    )
  })

  it('getOrder narrows to the order number and answers null when it is not the caller’s', async () => {
    get.mockResolvedValueOnce({ list: [order('P1')], hasMore: false })
    await expect(getOrder('P1')).resolves.toEqual(order('P1'))
    expect(get.mock.calls[0][1]).toEqual({ orderNo: 'P1', pageNumber: 1, pageSize: 1 })
    get.mockResolvedValueOnce({ list: [], hasMore: false })
    await expect(getOrder('P2')).resolves.toBeNull()
    // A server that ignored the filter must not show another order as this one.
    get.mockResolvedValueOnce({ list: [order('P9')], hasMore: true })
    await expect(getOrder('P3')).resolves.toBeNull()
  })
})

describe('payment error reports', () => {
  it('sends the spec §7 fields as kind payment', async () => {
    post.mockResolvedValue({ id: 1 })
    await reportPayError({ payname: 'sandbox', payid: 'P1', paytype: 'sandbox', payadds: 'coins', emsg: 'boom\u0000\nline' }, 7)
    expect(post).toHaveBeenCalledWith(
      '/api/app/report/error',
      {
        kind: 'payment',
        appname: 'Prima',
        appv: '1.1.3',
        dev: 'ios',
        payname: 'sandbox',
        payid: 'P1',
        paytype: 'sandbox',
        payadds: 'coins',
        emsg: 'boom \nline',
        userid: 7,
      },
    )
  })

  it('never throws when the report fails', async () => {
    post.mockRejectedValue(new Error('offline'))
    await expect(reportPayError({ payname: '', payid: 'P', paytype: '', payadds: '', emsg: 'x' }, null)).resolves.toBeUndefined()
  })

  it('cutBytes bounds UTF-8 bytes without splitting a character', () => {
    expect(cutBytes('abc', 2)).toBe('ab')
    expect(cutBytes('金币金币', 7)).toBe('金币')
    expect(cutBytes('a😀b', 4)).toBe('a')
    expect(cutBytes('a😀b', 5)).toBe('a😀')
  })

  it('printable keeps line breaks and blanks other controls', () => {
    expect(printable('a\tb\r\nc\u0085d\u007f')).toBe('a b\r\nc d ')
  })
})

describe('VIP calls', () => {
  it('tiroCountdown clamps the client countdown to 0..86400 whole seconds', async () => {
    get.mockResolvedValue({ isNew: false, secondsLeft: 0, offer: null })
    await getTiro(99999.7)
    expect(get.mock.calls[0][1]).toEqual({ seconds: 86400 })
    await getTiro(-3)
    expect(get.mock.calls[1][1]).toEqual({ seconds: 0 })
    await getTiro()
    expect(get.mock.calls[2][1]).toEqual({ seconds: undefined })
  })

  it('vip/buy sends the product and key', async () => {
    post.mockResolvedValue({})
    await buyVip(2, 'vip-12345678')
    expect(post).toHaveBeenCalledWith('/api/app/vip/buy', { productID: 2, idempotencyKey: 'vip-12345678' })
  })
})
