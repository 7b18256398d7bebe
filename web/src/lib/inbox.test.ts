import { describe, expect, it } from 'vitest'
import { badgeText, isLive, pollEvery, setLive, unreadTotal } from './inbox'

describe('inbox badge', () => {
  it('counts every unread notice and message', () => {
    expect(unreadTotal(null)).toBe(0)
    expect(unreadTotal({ notices: { system: 1, interaction: 2 }, messages: 3 })).toBe(6)
    expect(unreadTotal({ notices: { system: -1, interaction: 0 }, messages: 0 })).toBe(0)
  })

  it('shows nothing for zero and caps at 99+', () => {
    expect(badgeText(0)).toBe('')
    expect(badgeText(-3)).toBe('')
    expect(badgeText(NaN)).toBe('')
    expect(badgeText(7)).toBe('7')
    expect(badgeText(99)).toBe('99')
    expect(badgeText(100)).toBe('99+')
  })

  it('polls only while the socket is down', () => {
    expect(pollEvery(true, 5000)).toBe(false)
    expect(pollEvery(false, 5000)).toBe(5000)
    setLive(true)
    expect(isLive()).toBe(true)
    setLive(false)
    expect(isLive()).toBe(false)
  })
})
