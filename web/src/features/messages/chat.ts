// The chat page's pure logic: text rules, idempotency keys, the timeline
// (server pages merged with messages still on their way, time separators)
// and how times read. Kept out of components so Vitest covers it.
import type { History, Message } from './types'

// MAX_TEXT matches the server (internal/messaging MaxText): characters
// after trimming, counted as code points as Go counts runes.
export const MAX_TEXT = 1000

export type TextProblem = 'empty' | 'long'

export function checkText(raw: string): { text: string; problem: TextProblem | null } {
  const text = raw.trim()
  const n = [...text].length
  return { text, problem: n === 0 ? 'empty' : n > MAX_TEXT ? 'long' : null }
}

// charCount is what the counter under the input shows.
export function charCount(raw: string): number {
  return [...raw.trim()].length
}

// newClientId makes the idempotency key of one message: kept across its
// retries, so a retried send never makes two.
export function newClientId(random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  return 'm-' + Array.from(random(12), (b) => b.toString(16).padStart(2, '0')).join('')
}

// Pending is a message of mine the server has not confirmed yet.
export interface Pending {
  clientId: string
  kind: 'text' | 'image'
  text: string
  localUrl?: string // a picture being sent: the local preview
  assetId?: number // set once the picture is uploaded
  state: 'uploading' | 'sending' | 'failed'
  progress?: number // 0..1 while uploading
  error?: string
  createdAt: string
}

export type TimelineItem =
  | { type: 'time'; key: string; at: string }
  | { type: 'message'; key: string; message: Message }
  | { type: 'pending'; key: string; pending: Pending }

// SEPARATOR_GAP_MS: a time line is shown above a message that comes this
// long after the one before it (and above the first).
export const SEPARATOR_GAP_MS = 5 * 60_000

// timeline turns the server's pages (each newest first, newest page first)
// and my pending messages into the list the page shows, oldest first. A
// pending message the server already holds (same clientId) shows once.
export function timeline(pages: History[] | undefined, pending: Pending[]): TimelineItem[] {
  const seen = new Set<number>()
  const msgs: Message[] = []
  for (const p of pages ?? []) {
    for (const m of p.list) {
      if (seen.has(m.id)) continue
      seen.add(m.id)
      msgs.push(m)
    }
  }
  msgs.sort((a, b) => a.id - b.id)
  const sent = new Set(msgs.map((m) => m.clientId).filter(Boolean))
  const out: TimelineItem[] = []
  let last = -Infinity
  const stamp = (at: string, key: string) => {
    const ms = Date.parse(at)
    if (Number.isFinite(ms) && ms - last >= SEPARATOR_GAP_MS) out.push({ type: 'time', key: `t-${key}`, at })
    if (Number.isFinite(ms)) last = Math.max(last, ms)
  }
  for (const m of msgs) {
    stamp(m.createdAt, `m${m.id}`)
    out.push({ type: 'message', key: `m${m.id}`, message: m })
  }
  for (const p of pending) {
    if (sent.has(p.clientId)) continue
    stamp(p.createdAt, p.clientId)
    out.push({ type: 'pending', key: p.clientId, pending: p })
  }
  return out
}

// newestFromPeer is the id of the newest message the peer sent me, which
// a read call marks up to (0: none).
export function newestFromPeer(pages: History[] | undefined): number {
  let max = 0
  for (const p of pages ?? []) for (const m of p.list) if (!m.fromMe && m.id > max) max = m.id
  return max
}

// unreadFromPeer: the peer sent me something I have not read.
export function unreadFromPeer(pages: History[] | undefined): boolean {
  return (pages ?? []).some((p) => p.list.some((m) => !m.fromMe && !m.read))
}

// Times are shown in Asia/Shanghai (UTC+8 all year), as everywhere.
const SHANGHAI_MS = 8 * 3600_000

function shanghai(ms: number): { y: number; mo: string; d: string; hm: string; day: number } {
  const s = new Date(ms + SHANGHAI_MS).toISOString()
  return { y: Number(s.slice(0, 4)), mo: s.slice(5, 7), d: s.slice(8, 10), hm: s.slice(11, 16), day: Math.floor((ms + SHANGHAI_MS) / 86_400_000) }
}

// chatTime: "14:05" today, "昨天 14:05" / "Yesterday 14:05", "11-20 14:05"
// this year, "2025-11-20 14:05" before.
export function chatTime(iso: string, now: number, yesterday: string): string {
  const ms = Date.parse(iso)
  if (!Number.isFinite(ms)) return ''
  const a = shanghai(ms)
  const b = shanghai(now)
  if (a.day === b.day) return a.hm
  if (a.day === b.day - 1) return `${yesterday} ${a.hm}`
  if (a.y === b.y) return `${a.mo}-${a.d} ${a.hm}`
  return `${a.y}-${a.mo}-${a.d} ${a.hm}`
}
