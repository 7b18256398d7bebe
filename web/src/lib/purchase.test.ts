import { afterEach, describe, expect, it, vi } from 'vitest'

const post = vi.fn()
const get = vi.fn()
vi.mock('./api', () => ({ api: { post: (...a: unknown[]) => post(...a), get: (...a: unknown[]) => get(...a) } }))
const p = await import('./purchase')

afterEach(() => {
  post.mockReset()
  get.mockReset()
})

describe('buy', () => {
  it('posts a video purchase with its coupon choice and key', async () => {
    post.mockResolvedValue({ purchase: { id: 1 }, wallet: { coins: 5 } })
    await p.buy({ kind: 'video', id: 9 }, true, 'buy-abc12345')
    expect(post).toHaveBeenCalledWith('/api/app/vid/buy', { id: 9, useCoupon: true, idempotencyKey: 'buy-abc12345' })
  })

  it('posts a gallery purchase to gallery/buy, never with a coupon', async () => {
    post.mockResolvedValue({})
    await p.buy({ kind: 'gallery', id: 4 }, true, 'buy-xyz12345')
    expect(post.mock.calls[0][0]).toBe('/api/app/gallery/buy')
    expect(post.mock.calls[0][1]).toEqual({ id: 4, idempotencyKey: 'buy-xyz12345' })
  })
})

describe('Intent', () => {
  it('keeps one key while the same purchase is retried, a new one after an answer', () => {
    let n = 0
    const intent = new p.Intent(() => `k-${++n}`)
    const a = intent.keyFor({ id: 1, useCoupon: false })
    expect(intent.keyFor({ id: 1, useCoupon: false })).toBe(a)
    intent.settle()
    expect(intent.keyFor({ id: 1, useCoupon: false })).not.toBe(a)
  })

  it('makes a new key when the parameters change (the server would refuse the old one)', () => {
    let n = 0
    const intent = new p.Intent(() => `k-${++n}`)
    const coins = intent.keyFor({ id: 1, useCoupon: false })
    const coupon = intent.keyFor({ id: 1, useCoupon: true })
    expect(coupon).not.toBe(coins)
  })
})

describe('errors', () => {
  it('isInsufficient reads the 409 balance refusal only', () => {
    expect(p.isInsufficient({ status: 409, code: 409, tip: '金币余额不足' })).toBe(true)
    expect(p.isInsufficient({ status: 409, code: 409, tip: '已购买该视频' })).toBe(false)
    expect(p.isInsufficient({ status: 422, code: 422, tip: '余额不足' })).toBe(false)
    expect(p.isInsufficient(null)).toBe(false)
  })

  it('isRetryable: no answer or a server failure, never a 4xx answer', () => {
    expect(p.isRetryable({ kind: 'network', status: 0 })).toBe(true)
    expect(p.isRetryable({ kind: 'timeout', status: 0 })).toBe(true)
    expect(p.isRetryable({ kind: 'http', status: 502 })).toBe(true)
    expect(p.isRetryable({ kind: 'http', status: 409 })).toBe(false)
    expect(p.isRetryable({ kind: 'business', status: 200 })).toBe(false)
    expect(p.isRetryable(undefined)).toBe(false)
  })
})

describe('coupons', () => {
  it('counts only unused, positive integer counts', () => {
    expect(
      p.unusedCoupons([
        { position: 'unused', coupons: [{ id: 1, name: 'a', count: 2, expiresAt: null }, { id: 2, name: 'b', count: 1.5, expiresAt: null }] },
        { position: 'used', coupons: [{ id: 1, name: 'a', count: 7, expiresAt: null }] },
        { position: 'expired', coupons: [{ id: 1, name: 'a', count: 3, expiresAt: null }] },
      ]),
    ).toBe(2)
    expect(p.unusedCoupons(undefined)).toBe(0)
  })
})

describe('return paths', () => {
  it('keeps paths of this app and refuses other origins', () => {
    expect(p.safeReturn('/detail/3?x=1')).toBe('/detail/3?x=1')
    expect(p.safeReturn('//evil.example/x')).toBe('/mine')
    expect(p.safeReturn('/\\evil.example')).toBe('/mine')
    expect(p.safeReturn('https://evil.example')).toBe('/mine')
    expect(p.safeReturn(null, '/home')).toBe('/home')
  })

  it('topUpPath carries the return path encoded', () => {
    expect(p.topUpPath('/detail/3?a=1&b=2')).toBe('/mine/usercoinchongzhi?from=%2Fdetail%2F3%3Fa%3D1%26b%3D2')
    expect(p.topUpPath()).toBe('/mine/usercoinchongzhi')
  })
})

describe('moneyMoved', () => {
  it('tells every listener until it unsubscribes', () => {
    const seen: string[] = []
    const off = p.onMoneyMoved((r) => seen.push(r))
    p.moneyMoved('buy')
    off()
    p.moneyMoved('topup')
    expect(seen).toEqual(['buy'])
  })
})
