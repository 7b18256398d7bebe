import { describe, expect, it } from 'vitest'
import { charCount, chatTime, checkText, MAX_TEXT, newClientId, newestFromPeer, timeline, unreadFromPeer, type Pending } from './chat'
import type { History, Message } from './types'

const msg = (id: number, fromMe: boolean, at: string, extra: Partial<Message> = {}): Message => ({
  id,
  from: fromMe ? 1 : 2,
  to: fromMe ? 2 : 1,
  kind: 'text',
  text: `m${id}`,
  image: null,
  createdAt: at,
  read: false,
  fromMe,
  ...extra,
})
const page = (list: Message[], hasMore = false): History => ({
  peer: { uid: 2, name: 'b', portrait: '', vipLevel: 0 },
  blocked: false,
  blockedBy: false,
  list,
  hasMore,
  before: list.length ? list[list.length - 1].id : 0,
  peerReadUpTo: 0,
})

describe('text rules', () => {
  it('trims, refuses empty and over 1000 characters (code points)', () => {
    expect(checkText('  hi \n')).toEqual({ text: 'hi', problem: null })
    expect(checkText(' \n\t ').problem).toBe('empty')
    expect(checkText('字'.repeat(MAX_TEXT)).problem).toBeNull()
    expect(checkText('字'.repeat(MAX_TEXT + 1)).problem).toBe('long')
    // An emoji is one character, as the server counts.
    expect(checkText('😀'.repeat(MAX_TEXT)).problem).toBeNull()
    expect(charCount(' 😀a ')).toBe(2)
  })

  it('makes client ids the server accepts, different each time', () => {
    const id = newClientId()
    expect(id).toMatch(/^m-[0-9a-f]{24}$/)
    expect(newClientId()).not.toBe(id)
    expect(newClientId(() => new Uint8Array(12))).toBe('m-' + '00'.repeat(12))
  })
})

describe('timeline', () => {
  it('orders pages oldest first, drops duplicates and puts separators at gaps', () => {
    const newest = page([msg(5, true, '2026-11-22T10:06:00Z'), msg(4, false, '2026-11-22T10:05:00Z')], true)
    const older = page([msg(4, false, '2026-11-22T10:05:00Z'), msg(2, true, '2026-11-22T09:00:00Z')])
    const items = timeline([newest, older], [])
    expect(items.map((i) => i.key)).toEqual(['t-m2', 'm2', 't-m4', 'm4', 'm5'])
  })

  it('shows a pending message once the server holds it, only once', () => {
    const p: Pending = { clientId: 'c1', kind: 'text', text: 'hi', state: 'sending', createdAt: '2026-11-22T10:06:30Z' }
    const q: Pending = { clientId: 'c2', kind: 'text', text: 'yo', state: 'failed', createdAt: '2026-11-22T10:07:00Z' }
    const before = timeline([page([msg(5, true, '2026-11-22T10:06:00Z')])], [p, q])
    expect(before.map((i) => i.key)).toEqual(['t-m5', 'm5', 'c1', 'c2'])
    const after = timeline([page([msg(6, true, '2026-11-22T10:06:30Z', { clientId: 'c1' }), msg(5, true, '2026-11-22T10:06:00Z')])], [p, q])
    expect(after.map((i) => i.key)).toEqual(['t-m5', 'm5', 'm6', 'c2'])
    expect(timeline(undefined, [])).toEqual([])
  })

  it('knows what to mark read', () => {
    const pages = [page([msg(9, true, '2026-11-22T10:06:00Z'), msg(8, false, '2026-11-22T10:05:00Z'), msg(3, false, '2026-11-22T10:00:00Z', { read: true })])]
    expect(newestFromPeer(pages)).toBe(8)
    expect(unreadFromPeer(pages)).toBe(true)
    expect(unreadFromPeer([page([msg(3, false, '2026-11-22T10:00:00Z', { read: true })])])).toBe(false)
    expect(newestFromPeer(undefined)).toBe(0)
  })
})

describe('chat times, in Asia/Shanghai', () => {
  const now = Date.parse('2026-11-22T06:00:00Z') // 14:00 in Shanghai
  it('reads today, yesterday, this year and before', () => {
    expect(chatTime('2026-11-22T01:05:00Z', now, '昨天')).toBe('09:05')
    // 23:30 UTC on the 21st is 07:30 on the 22nd in Shanghai: today.
    expect(chatTime('2026-11-21T23:30:00Z', now, '昨天')).toBe('07:30')
    expect(chatTime('2026-11-21T15:00:00Z', now, '昨天')).toBe('昨天 23:00')
    expect(chatTime('2026-03-01T02:00:00Z', now, '昨天')).toBe('03-01 10:00')
    // New Year's Eve 17:00 UTC is already New Year in Shanghai: this year.
    expect(chatTime('2025-12-31T17:00:00Z', now, '昨天')).toBe('01-01 01:00')
    expect(chatTime('2025-12-31T15:00:00Z', now, '昨天')).toBe('2025-12-31 23:00')
    expect(chatTime('2024-05-01T00:00:00Z', now, 'Yesterday')).toBe('2024-05-01 08:00')
    expect(chatTime('garbage', now, '昨天')).toBe('')
  })
})
