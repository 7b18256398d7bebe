import { describe, expect, it } from 'vitest'
import { accountText, kindLabel, pendingOnly, stateColor, stateLabel } from './logic'

const card = { id: 1, actType: 1, bankName: '中国银行', holder: '张三', number: '6222021234567890128', network: '' }

describe('withdrawal rules', () => {
  it('marks a held withdrawal 待复核 and nothing else', () => {
    expect(stateLabel({ status: 'pending', awaitingSecond: true })).toBe('money.w.awaiting')
    expect(stateLabel({ status: 'pending', awaitingSecond: false })).toBe('money.w.pending')
    expect(stateLabel({ status: 'paid', awaitingSecond: true })).toBe('money.w.paid')
    expect(stateColor({ status: 'pending', awaitingSecond: true })).toBe('orange')
    expect(stateColor({ status: 'rejected', awaitingSecond: false })).toBe('red')
  })
  it('shows the payee whole', () => {
    expect(accountText({ account: card })).toBe('中国银行 张三 6222021234567890128')
    expect(accountText({ account: { ...card, actType: 2, network: 'TRC20', number: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' } })).toBe('USDT TRC20 TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')
  })
  it('sends only pending rows of the page, at most 100', () => {
    const rows = [
      { orderNo: 'W1', status: 'pending' as const },
      { orderNo: 'W2', status: 'paid' as const },
    ]
    expect(pendingOnly(['W1', 'W2', 'W9'], rows)).toEqual(['W1'])
    const many = Array.from({ length: 120 }, (_, i) => ({ orderNo: `W${i}`, status: 'pending' as const }))
    expect(pendingOnly(many.map((r) => r.orderNo), many)).toHaveLength(100)
  })
})

describe('kind labels', () => {
  const t = ((k: string) => `<${k}>`) as never
  it('names known kinds and shows unknown ones as they are', () => {
    expect(kindLabel(t, 'commission')).toBe('<money.kind.commission>')
    expect(kindLabel(t, 'brand_new_kind')).toBe('brand_new_kind')
  })
})
