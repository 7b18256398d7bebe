// The feeds' calls: GET /api/app/community/posts (every source), the topic
// list, one topic, following topics and the followed list.
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { useUserStore } from '@/stores/user'
import { feedKeys, type FeedSource } from '@/features/community/keys'
import type { Post, Topic } from '@/features/community/types'

export const FEED_PAGE_SIZE = 20

export function getPosts(src: FeedSource, pageNumber: number): Promise<Page<Post>> {
  return api.get<Page<Post>>('/api/app/community/posts', { ...src, pageNumber, pageSize: FEED_PAGE_SIZE })
}

export function postsQueryOptions(src: FeedSource, token: string | null) {
  return infiniteQueryOptions({
    queryKey: feedKeys.posts(src, token),
    queryFn: ({ pageParam }) => getPosts(src, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    staleTime: 60_000,
  })
}

// usePosts is one feed; enabled false holds it (the follow feed without a
// token).
export function usePosts(src: FeedSource, enabled = true) {
  const token = useUserStore((s) => s.token)
  return useInfiniteQuery({ ...postsQueryOptions(src, token), enabled })
}

export function useTopics(sort: 'hot' | 'new') {
  const token = useUserStore((s) => s.token)
  return useQuery({
    queryKey: feedKeys.topics(sort, token),
    queryFn: () => api.get<Page<Topic>>('/api/app/community/topics', { sort, pageNumber: 1, pageSize: 12 }),
    staleTime: 5 * 60_000,
  })
}

export function useTopic(id: number) {
  const token = useUserStore((s) => s.token)
  return useQuery({
    queryKey: feedKeys.topic(id, token),
    queryFn: () => api.get<Topic>('/api/app/community/topic', { id }),
    enabled: id > 0,
    retry: (n, err) => n < 2 && !(err instanceof ApiError && err.status === 404),
  })
}

export function useFollowedTopics() {
  const token = useUserStore((s) => s.token)
  return useInfiniteQuery({
    queryKey: feedKeys.followed(token),
    queryFn: ({ pageParam }) =>
      api.get<Page<Topic>>('/api/app/community/topic/followed', { pageNumber: pageParam, pageSize: FEED_PAGE_SIZE }),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    enabled: token != null,
  })
}

interface FollowResult {
  followed: boolean
  followCount: number
}

type Snapshot = [QueryKey, unknown][]

const patch = (t: Topic, id: number, followed: boolean, count?: number): Topic =>
  t.id !== id ? t : { ...t, followed, followCount: count ?? Math.max(0, t.followCount + (followed === t.followed ? 0 : followed ? 1 : -1)) }

// useFollowTopic follows or unfollows at once on every cached topic (page,
// strip, followed list) and puts them back if the server refuses (the API
// client toasts its tip).
export function useFollowTopic() {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: ({ id, follow }: { id: number; follow: boolean }) =>
      api.post<FollowResult>('/api/app/community/topic/follow', { id, isFollow: follow }, { toast: true }),
    onMutate: async ({ id, follow }): Promise<Snapshot> => {
      await qc.cancelQueries({ queryKey: feedKeys.topicsAll() })
      const snap: Snapshot = qc.getQueriesData({ queryKey: feedKeys.topicsAll() })
      apply(qc, id, follow)
      return snap
    },
    onError: (_e, _v, snap) => {
      for (const [k, v] of snap ?? []) qc.setQueryData(k, v)
    },
    onSuccess: (res, { id }) => apply(qc, id, res.followed, res.followCount),
  })
}

function apply(qc: ReturnType<typeof useQueryClient>, id: number, followed: boolean, count?: number) {
  for (const [key, data] of qc.getQueriesData<unknown>({ queryKey: feedKeys.topicsAll() })) {
    if (!data || typeof data !== 'object') continue
    if ('pages' in data) {
      const d = data as InfiniteData<Page<Topic>>
      qc.setQueryData(key, { ...d, pages: d.pages.map((p) => ({ ...p, list: p.list.map((x) => patch(x, id, followed, count)) })) })
    } else if ('list' in data) {
      const d = data as Page<Topic>
      qc.setQueryData(key, { ...d, list: d.list.map((x) => patch(x, id, followed, count)) })
    } else if ('id' in data) {
      qc.setQueryData(key, patch(data as Topic, id, followed, count))
    }
  }
}

// The community module (module type 1) and its sub-modules, the tab's
// chips (GET /api/app/modules/list?moduleType=1, as the home tab reads
// type 0).
export interface CommunityModule {
  moduleID: number
  moduleName: string
  subModules: { id: number; moduleName: string }[]
}

export function communityModulesQueryOptions() {
  return queryOptions({
    queryKey: feedKeys.modules(),
    queryFn: () => api.get<CommunityModule[]>('/api/app/modules/list', { moduleType: 1 }),
    staleTime: 5 * 60_000,
  })
}

export function useCommunityModules() {
  return useQuery(communityModulesQueryOptions())
}
