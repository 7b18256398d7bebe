import { describe, expect, it } from 'vitest'
import { fromForm, reasonOK, toForm } from './logic'

describe('commission form', () => {
  it('shows basis points as percent and sends them back unchanged', () => {
    const c = { levels: [1000, 300, 100], promoterLevels: [2000, 500, 200], settleDays: 7, creatorShareBps: 5000, inviteReward: 'off' as const }
    const f = toForm(c)
    expect(f.rows).toEqual([
      { member: 10, promoter: 20 },
      { member: 3, promoter: 5 },
      { member: 1, promoter: 2 },
    ])
    expect(f.creatorShare).toBe(50)
    expect(fromForm(f)).toEqual(c)
  })
  it('rounds typed percent to whole basis points', () => {
    const f = { rows: [{ member: 12.345, promoter: 0.07 }], settleDays: 0, creatorShare: 33.333, inviteReward: 'phone' as const }
    expect(fromForm(f)).toEqual({ levels: [1235], promoterLevels: [7], settleDays: 0, creatorShareBps: 3333, inviteReward: 'phone' })
  })
})

describe('rejection reason', () => {
  it('takes one trimmed line of 1..200 characters', () => {
    expect(reasonOK('请补充推广渠道的链接')).toBe(true)
    expect(reasonOK('  ')).toBe(false)
    expect(reasonOK('a\nb')).toBe(false)
    expect(reasonOK('a\u0000')).toBe(false)
    expect(reasonOK('字'.repeat(200))).toBe(true)
    expect(reasonOK('字'.repeat(201))).toBe(false)
  })
})
