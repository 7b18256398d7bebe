// GET /api/app/message/list?uid=&before=&pageSize: one conversation, newest
// page first, older pages by the keyset cursor `before`. The first page
// refetches on events (and polls while the socket is down); older pages
// never change but for read receipts, which the first page's peerReadUpTo
// carries.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { CHAT_POLL_MS, pollEvery, useLive } from '@/lib/inbox'
import { messageKeys } from '@/features/messages/keys'
import type { History } from '@/features/messages/types'

export const HISTORY_PAGE = 30

export function getHistory(uid: number, before: number): Promise<History> {
  return api.get<History>('/api/app/message/list', { uid, before: before || undefined, pageSize: HISTORY_PAGE })
}

export function useHistory(uid: number, token: string | null) {
  const live = useLive()
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: messageKeys.history(uid, token),
      queryFn: ({ pageParam }) => getHistory(uid, pageParam),
      initialPageParam: 0,
      getNextPageParam: (last: History) => (last.hasMore ? last.before : undefined),
      enabled: token != null && uid > 0,
      refetchInterval: pollEvery(live, CHAT_POLL_MS),
    }),
  )
}
