// GET /api/app/mine/conversations: my conversations, the latest first.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { BADGE_POLL_MS, pollEvery, useLive } from '@/lib/inbox'
import { messageKeys } from '@/features/messages/keys'
import { PAGE_SIZE } from '@/features/messages/api/notices'
import type { Conversation } from '@/features/messages/types'

export function getConversations(pageNumber: number): Promise<Page<Conversation>> {
  return api.get<Page<Conversation>>('/api/app/mine/conversations', { pageNumber, pageSize: PAGE_SIZE })
}

// Live through realtime events; polled with the badges while the socket is down.
export function useConversations(token: string | null, enabled = true) {
  const live = useLive()
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: messageKeys.conversations(token),
      queryFn: ({ pageParam }) => getConversations(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: token != null && enabled,
      refetchInterval: pollEvery(live, BADGE_POLL_MS),
    }),
  )
}
