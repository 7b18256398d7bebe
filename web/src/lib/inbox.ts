// The inbox's unread counts (GET /api/app/mine/unread), shared by the
// message centre, the Mine page's message entry and the Mine tab's badge,
// and the realtime connection state that decides whether they poll.
// docs/api.md, *Messages*.
import { useSyncExternalStore } from 'react'
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from './api'

export interface Unread {
  notices: { system: number; interaction: number }
  messages: number
}

// The query keys of inbox data that more than one feature reads or
// invalidates (a realtime event refreshes all of them). Personal, so they
// carry the token.
export const inboxKeys = {
  all: ['inbox'] as const,
  unread: (token: string | null) => [...inboxKeys.all, 'unread', token] as const,
}

// unreadTotal is what a badge counts.
export function unreadTotal(u: Unread | null | undefined): number {
  if (!u) return 0
  return Math.max(0, u.notices.system) + Math.max(0, u.notices.interaction) + Math.max(0, u.messages)
}

// badgeText is a count as a badge shows it: nothing for 0, 99+ above 99.
export function badgeText(n: number): string {
  if (!Number.isFinite(n) || n <= 0) return ''
  return n > 99 ? '99+' : String(Math.floor(n))
}

// Polling fallback: while the realtime socket is not open, pages poll
// instead of waiting for events (chat every 5 s, badges every 30 s).
export const CHAT_POLL_MS = 5_000
export const BADGE_POLL_MS = 30_000

let live = false
const liveListeners = new Set<() => void>()

// setLive is told by the realtime wiring (app/realtime.ts) when the
// socket opens or closes.
export function setLive(on: boolean): void {
  if (on === live) return
  live = on
  liveListeners.forEach((fn) => fn())
}

export function isLive(): boolean {
  return live
}

function subscribeLive(fn: () => void): () => void {
  liveListeners.add(fn)
  return () => liveListeners.delete(fn)
}

// useLive: the realtime socket is open (events arrive, no need to poll).
export function useLive(): boolean {
  return useSyncExternalStore(subscribeLive, isLive, () => false)
}

// pollEvery is a refetchInterval: ms while the socket is down, else off.
export function pollEvery(connected: boolean, ms: number): number | false {
  return connected ? false : ms
}

export function getUnread(): Promise<Unread> {
  return api.get<Unread>('/api/app/mine/unread')
}

export function unreadQueryOptions(token: string | null, connected: boolean) {
  return queryOptions({
    queryKey: inboxKeys.unread(token),
    queryFn: getUnread,
    enabled: token != null,
    staleTime: 10_000,
    refetchInterval: pollEvery(connected, BADGE_POLL_MS),
  })
}

// useUnread is the badge counts, live or polled.
export function useUnread(token: string | null) {
  const connected = useLive()
  return useQuery(unreadQueryOptions(token, connected))
}
