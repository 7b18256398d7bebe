// POST /api/app/mine/follow {followUID, isFollow} and GET
// /api/app/follow/list (following or fans, paged by cursor).
import { useInfiniteQuery, useMutation, useQueryClient, type InfiniteData, type QueryKey } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { peopleKeys, type Extension } from '@/lib/people'
import { useUserStore } from '@/stores/user'
import { profileKeys } from '@/features/profile/keys'
import { toggledFans } from '@/features/profile/rules'
import type { FollowResult, ListKind, PersonPage, Profile } from '@/features/profile/types'

export const LIST_PAGE_SIZE = 20

// useFollowList is uid's list (the caller's when uid is null). Pages after
// the first follow the server's cursor, so rows never repeat or skip while
// people follow and unfollow during the scroll.
export function useFollowList(kind: ListKind, uid: number | null, token: string | null) {
  return useInfiniteQuery({
    queryKey: profileKeys.list(kind, uid, token),
    queryFn: ({ pageParam }) =>
      api.get<PersonPage>(
        '/api/app/follow/list',
        { type: kind, uid: uid ?? undefined, pageSize: LIST_PAGE_SIZE, cursor: pageParam || undefined },
      ),
    initialPageParam: '',
    getNextPageParam: (last) => (last.hasMore && last.cursor ? last.cursor : undefined),
    enabled: token != null,
  })
}

interface FollowVars {
  uid: number
  follow: boolean
}

type Snapshot = [QueryKey, unknown][]

// useFollow follows or unfollows optimistically: the user's page, counts
// and list rows change at once and go back if the server refuses (its tip
// is toasted by the API client).
export function useFollow() {
  const qc = useQueryClient()
  const token = useUserStore((s) => s.token)
  return useMutation({
    mutationFn: ({ uid, follow }: FollowVars) => api.post<FollowResult>('/api/app/mine/follow', { followUID: uid, isFollow: follow }, { toast: true }),
    onMutate: async ({ uid, follow }): Promise<Snapshot> => {
      const keys: QueryKey[] = [profileKeys.user(uid, token), peopleKeys.ext(uid, token), profileKeys.listAll()]
      await Promise.all(keys.map((queryKey) => qc.cancelQueries({ queryKey })))
      const snap: Snapshot = keys.flatMap((k) => qc.getQueriesData({ queryKey: k }))
      const was = qc.getQueryData<Profile>(profileKeys.user(uid, token))?.isFollow ?? !follow
      qc.setQueryData<Profile>(profileKeys.user(uid, token), (p) => (p ? { ...p, isFollow: follow } : p))
      qc.setQueryData<Extension>(peopleKeys.ext(uid, token), (e) => (e ? { ...e, fansCount: toggledFans(e.fansCount, was, follow) } : e))
      qc.setQueriesData<InfiniteData<PersonPage>>({ queryKey: profileKeys.listAll() }, (d) =>
        d ? { ...d, pages: d.pages.map((p) => ({ ...p, list: p.list.map((x) => (x.uid === uid ? { ...x, isFollow: follow } : x)) })) } : d,
      )
      return snap
    },
    onError: (_err, _vars, snap) => {
      for (const [k, v] of snap ?? []) qc.setQueryData(k, v)
    },
    onSuccess: (res) => {
      qc.setQueryData<Extension>(peopleKeys.ext(res.followUID, token), (e) => (e ? { ...e, fansCount: res.fansCount } : e))
      // The caller's own following count changed.
      void qc.invalidateQueries({ queryKey: peopleKeys.ext(null, token) })
    },
  })
}
