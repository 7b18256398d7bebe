import { afterEach, describe, expect, it, vi } from 'vitest'
import { MemoryStorage } from '@/lib/testing'
import { afterTopay, clock, discountPercent, outcomeOf, payTypeName, pollDelay, recallReturn, rememberReturn, secondsLeftAt, shanghaiDate, tierActive } from './result'

afterEach(() => vi.unstubAllGlobals())

describe('result rules', () => {
  it('maps order states to outcomes', () => {
    expect(outcomeOf('pending')).toBe('waiting')
    expect(outcomeOf(undefined)).toBe('waiting')
    expect(outcomeOf('paid')).toBe('success')
    expect(outcomeOf('cancelled')).toBe('failed')
    expect(outcomeOf('expired')).toBe('failed')
    expect(outcomeOf('refunded')).toBe('failed')
  })

  it('polls every second at first, then slows to 5 s', () => {
    expect(pollDelay(0)).toBe(1000)
    expect(pollDelay(9)).toBe(1000)
    expect(pollDelay(10)).toBe(1500)
    expect(pollDelay(100)).toBe(5000)
  })
})

describe('countdown', () => {
  it('formats HH:MM:SS and clamps bad values', () => {
    expect(clock(86399)).toBe('23:59:59')
    expect(clock(61)).toBe('00:01:01')
    expect(clock(-5)).toBe('00:00:00')
    expect(clock(NaN)).toBe('00:00:00')
  })

  it('counts down on the client clock from when the answer arrived', () => {
    expect(secondsLeftAt(100, 1_000, 1_000)).toBe(100)
    expect(secondsLeftAt(100, 1_000, 11_000)).toBe(90)
    expect(secondsLeftAt(100, 1_000, 10_500)).toBe(91)
    expect(secondsLeftAt(5, 0, 60_000)).toBe(0)
  })
})

describe('dates and prices', () => {
  it('shows dates in Asia/Shanghai', () => {
    expect(shanghaiDate('2026-11-30T17:00:00Z')).toBe('2026-12-01')
    expect(shanghaiDate(null)).toBe('')
    expect(shanghaiDate('nonsense')).toBe('')
  })

  it('tierActive: an expiry ahead of now', () => {
    const now = Date.parse('2026-11-23T00:00:00Z')
    expect(tierActive('2026-11-24T00:00:00Z', now)).toBe(true)
    expect(tierActive('2026-11-22T00:00:00Z', now)).toBe(false)
    expect(tierActive(null, now)).toBe(false)
  })

  it('discountPercent rounds down and ignores a missing original', () => {
    expect(discountPercent(2000, 3000)).toBe(33)
    expect(discountPercent(3000, 0)).toBe(0)
    expect(discountPercent(3000, 3000)).toBe(0)
  })
})

describe('return path per order', () => {
  it('remembers where each payment started', () => {
    vi.stubGlobal('sessionStorage', new MemoryStorage())
    rememberReturn('P1', '/detail/7')
    expect(recallReturn('P1')).toBe('/detail/7')
    expect(recallReturn('P2')).toBeNull()
  })

  it('survives a storage that throws', () => {
    const broken = new MemoryStorage()
    broken.broken = true
    vi.stubGlobal('sessionStorage', broken)
    expect(() => rememberReturn('P1', '/x')).not.toThrow()
    expect(recallReturn('P1')).toBeNull()
  })
})

describe('after topay', () => {
  it('opens the provider only for a pending order with a page or a payment app to open', () => {
    expect(afterTopay({ orderNo: 'P1', status: 'pending', payUrl: 'https://pay.example.com/submit.php?a=1' })).toEqual({ open: 'https://pay.example.com/submit.php?a=1' })
    expect(afterTopay({ orderNo: 'P1', status: 'pending', payUrl: '/pay/sandbox/P1?k=ab' })).toEqual({ open: '/pay/sandbox/P1?k=ab' })
    expect(afterTopay({ orderNo: 'P1', status: 'pending', payUrl: 'weixin://dl/business/?t=x' })).toEqual({ open: 'weixin://dl/business/?t=x' })
  })

  it('sends a replay of a paid, closed or page-less order to its result page', () => {
    for (const o of [
      { orderNo: 'P2', status: 'paid' as const, payUrl: '' },
      { orderNo: 'P2', status: 'cancelled' as const, payUrl: '' },
      { orderNo: 'P2', status: 'pending' as const, payUrl: '' },
      { orderNo: 'P2', status: 'pending' as const, payUrl: 'javascript:alert(1)' },
      { orderNo: 'P2', status: 'pending' as const, payUrl: 'data:text/html,x' },
      { orderNo: 'P2', status: 'pending' as const, payUrl: '//evil.example/x' },
    ]) {
      expect(afterTopay(o)).toEqual({ go: '/mine/usercoinchongzhi?orderNo=P2' })
    }
  })
})

describe('pay type names', () => {
  it('names the known providers from the catalogue and others as the server does', () => {
    expect(payTypeName({ code: 'epay_alipay', name: 'x' })).toBe('支付宝')
    expect(payTypeName({ code: 'epay_wxpay', name: 'x' })).toBe('微信支付')
    expect(payTypeName({ code: 'epay_qqpay', name: 'x' })).toBe('QQ钱包')
    expect(payTypeName({ code: 'stripe', name: 'x' })).toBe('银行卡 (Stripe)')
    expect(payTypeName({ code: 'newpay', name: '新支付' })).toBe('新支付')
  })
})
