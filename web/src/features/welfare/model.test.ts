import { describe, expect, it } from 'vitest'
import { prizeBlock, progressPercent, signed, strip, taskAction, type CheckinState } from './model'

const days = (done: number) =>
  Array.from({ length: 7 }, (_, i) => ({ day: i + 1, reward: { points: 5 }, done: i < done }))

const state = (done: number, checkedToday: boolean): CheckinState => ({
  checkedToday,
  streak: done,
  days: days(done),
  todayReward: { points: 5 },
  points: 0,
})

describe('strip', () => {
  it('marks the next day when not checked in', () => {
    expect(strip(state(0, false)).findIndex((c) => c.today)).toBe(0)
    expect(strip(state(3, false)).findIndex((c) => c.today)).toBe(3)
  })
  it('marks the day checked in today', () => {
    expect(strip(state(1, true)).findIndex((c) => c.today)).toBe(0)
    expect(strip(state(7, true)).findIndex((c) => c.today)).toBe(6)
  })
})

describe('progressPercent', () => {
  it('clamps to 0..100', () => {
    expect(progressPercent({ progress: 0, target: 3 })).toBe(0)
    expect(progressPercent({ progress: 1, target: 3 })).toBe(33)
    expect(progressPercent({ progress: 5, target: 3 })).toBe(100)
    expect(progressPercent({ progress: -2, target: 3 })).toBe(0)
  })
})

describe('taskAction', () => {
  it('claims, shows claimed, or goes to an in-app path only', () => {
    expect(taskAction({ state: 'claimable', link: '/x' })).toEqual({ kind: 'claim' })
    expect(taskAction({ state: 'claimed', link: '/x' })).toEqual({ kind: 'claimed' })
    expect(taskAction({ state: 'todo', link: '/home' })).toEqual({ kind: 'go', to: '/home' })
    expect(taskAction({ state: 'todo', link: '//evil.example' })).toEqual({ kind: 'none' })
    expect(taskAction({ state: 'todo', link: 'https://evil.example' })).toEqual({ kind: 'none' })
    expect(taskAction({ state: 'todo', link: '' })).toEqual({ kind: 'none' })
  })
})

describe('prizeBlock', () => {
  it('blocks out of stock first, then short of points', () => {
    expect(prizeBlock({ stock: 0, cost: 10 }, 100)).toBe('stock')
    expect(prizeBlock({ stock: null, cost: 10 }, 9)).toBe('points')
    expect(prizeBlock({ stock: 2, cost: 10 }, 10)).toBeNull()
  })
})

describe('signed', () => {
  it('signs gains, keeps the minus of spends', () => {
    expect(signed(5)).toBe('+5')
    expect(signed(-100)).toBe('-100')
    expect(signed(0)).toBe('0')
  })
})
