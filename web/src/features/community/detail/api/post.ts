// The post detail's calls: GET community/post, post/like, post/delete,
// report, following the author (mine/follow), and the comments (list,
// replies, create, delete). One file per concern of the page.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { postKeys } from '@/features/community/detail/keys'
import type { PostComment, PostDetail } from '@/features/community/detail/types'

export const COMMENT_PAGE_SIZE = 20

export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404
}

export function postQueryOptions(id: number, token: string | null) {
  return queryOptions({
    queryKey: postKeys.detail(id, token),
    queryFn: () => api.get<PostDetail>('/api/app/community/post', { id }),
    enabled: Number.isFinite(id),
    // The view is counted per call: do not refetch on every focus.
    staleTime: 60_000,
    retry: (n, err) => !isNotFound(err) && n < 2,
  })
}

export function usePost(id: number, token: string | null) {
  return useQuery(postQueryOptions(id, token))
}

// useLikePost flips liked and the count at once, rolls back on refusal,
// and takes the server's answer as the truth.
export function useLikePost(id: number, token: string | null) {
  const qc = useQueryClient()
  const key = postKeys.detail(id, token)
  return useMutation({
    mutationFn: (isLike: boolean) => api.post<{ liked: boolean; likeCount: number }>('/api/app/community/post/like', { id, isLike }, { toast: true }),
    onMutate: async (on: boolean) => {
      await qc.cancelQueries({ queryKey: key })
      const before = qc.getQueryData<PostDetail>(key)
      if (before) {
        const delta = on === before.liked ? 0 : on ? 1 : -1
        qc.setQueryData<PostDetail>(key, { ...before, liked: on, likeCount: Math.max(0, before.likeCount + delta) })
      }
      return { before }
    },
    onError: (_e, _on, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before)
    },
    onSuccess: (r) => {
      qc.setQueryData<PostDetail>(key, (d) => (d ? { ...d, liked: r.liked, likeCount: r.likeCount } : d))
    },
  })
}

// useFollowAuthor follows or unfollows the post's author optimistically.
export function useFollowAuthor(id: number, token: string | null) {
  const qc = useQueryClient()
  const key = postKeys.detail(id, token)
  return useMutation({
    mutationFn: (v: { uid: number; follow: boolean }) =>
      api.post<{ isFollow: boolean }>('/api/app/mine/follow', { followUID: v.uid, isFollow: v.follow }, { toast: true }),
    onMutate: async (v) => {
      await qc.cancelQueries({ queryKey: key })
      const before = qc.getQueryData<PostDetail>(key)
      if (before) qc.setQueryData<PostDetail>(key, { ...before, following: v.follow })
      return { before }
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before)
    },
    onSuccess: (r) => {
      qc.setQueryData<PostDetail>(key, (d) => (d ? { ...d, following: r.isFollow } : d))
    },
  })
}

export function deletePost(id: number) {
  return api.post<Record<string, never>>('/api/app/community/post/delete', { id }, { toast: true })
}

export const REPORT_REASONS = ['spam', 'porn', 'abuse', 'illegal', 'other'] as const
export type ReportReason = (typeof REPORT_REASONS)[number]

export function reportPost(postID: number, reason: ReportReason, commentID = 0) {
  return api.post<Record<string, never>>('/api/app/community/report', { postID, commentID, reason }, { toast: true })
}

export function useComments(postID: number, token: string | null, enabled: boolean) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: postKeys.comments(postID, token),
      queryFn: ({ pageParam }) =>
        api.get<Page<PostComment>>('/api/app/community/comments', { postID, pageNumber: pageParam, pageSize: COMMENT_PAGE_SIZE }),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled,
    }),
  )
}

export function useReplies(postID: number, parentID: number, token: string | null, enabled: boolean) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: postKeys.replies(postID, parentID, token),
      queryFn: ({ pageParam }) =>
        api.get<Page<PostComment>>(
          '/api/app/community/comments',
          { postID, parentID, pageNumber: pageParam, pageSize: COMMENT_PAGE_SIZE },
        ),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled,
    }),
  )
}

export interface NewComment {
  postID: number
  parentID: number
  replyToUID: number
  text: string
  clientID: string
}

export function addComment(c: NewComment) {
  return api.post<PostComment>('/api/app/community/comment', c, { toast: true })
}

export function deleteComment(id: number) {
  return api.post<Record<string, never>>('/api/app/community/comment/delete', { id }, { toast: true })
}

// afterCommentChange refetches what a new or deleted comment changes: the
// lists and the post's comment count.
export function useCommentsChanged(postID: number, token: string | null) {
  const qc = useQueryClient()
  return (delta: number) => {
    qc.setQueryData<PostDetail>(postKeys.detail(postID, token), (d) =>
      d ? { ...d, commentCount: Math.max(0, d.commentCount + delta) } : d,
    )
    void qc.invalidateQueries({ queryKey: postKeys.comments(postID, token) })
    void qc.invalidateQueries({ queryKey: postKeys.repliesOf(postID) })
  }
}
