// POST /api/app/mine/feedback and GET /api/app/mine/feedback (the user's
// feedback with the operators' replies).
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { supportKeys } from '@/features/support/keys'
import type { Feedback } from '@/features/support/types'

export interface FeedbackRequest {
  content: string
  images: number[]
  contact: string
}

export function postFeedback(body: FeedbackRequest): Promise<{ id: number }> {
  return api.post<{ id: number }>('/api/app/mine/feedback', body)
}

export function useSendFeedback() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: postFeedback,
    onSuccess: () => qc.invalidateQueries({ queryKey: supportKeys.feedbackAll() }),
  })
}

export const FEEDBACK_PAGE_SIZE = 10

export function useMyFeedback(token: string | null) {
  return useInfiniteQuery({
    queryKey: supportKeys.feedback(token),
    queryFn: ({ pageParam }) =>
      api.get<Page<Feedback>>('/api/app/mine/feedback', { pageNumber: pageParam, pageSize: FEEDBACK_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}
