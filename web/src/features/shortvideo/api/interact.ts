// POST /api/app/vid/like (optimistic, rolled back on failure), POST
// /api/app/mine/follow for a clip's uploader (the same), and POST
// /api/app/vid/play (counted once per clip, failures ignored).
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { VideoInfo } from '@/features/shortvideo/types'
import { shortKeys } from '@/features/shortvideo/keys'

export function useLike(id: number) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: (isLike: boolean) => api.post<{ isLike: boolean; likeCount: number }>('/api/app/vid/like', { id, isLike }, { toast: true }),
    onMutate: async (isLike) => {
      await qc.cancelQueries({ queryKey: shortKeys.info(id) })
      const before = qc.getQueryData<VideoInfo>(shortKeys.info(id))
      if (before)
        qc.setQueryData<VideoInfo>(shortKeys.info(id), {
          ...before,
          isLike,
          likeCount: Math.max(0, before.likeCount + (isLike === before.isLike ? 0 : isLike ? 1 : -1)),
        })
      return { before }
    },
    onError: (_e, _v, ctx) => {
      if (ctx?.before) qc.setQueryData(shortKeys.info(id), ctx.before)
    },
    onSuccess: (res) => {
      const cur = qc.getQueryData<VideoInfo>(shortKeys.info(id))
      if (cur) qc.setQueryData<VideoInfo>(shortKeys.info(id), { ...cur, isLike: res.isLike, likeCount: res.likeCount })
    },
  })
}

// useFollowUploader follows or unfollows a clip's uploader. Every clip of
// theirs in the cache shows the change at once; the server's refusal puts
// them back (its tip is toasted by the API client).
export function useFollowUploader() {
  const qc = useQueryClient()
  const mark = (uid: number, isFollow: boolean) =>
    qc.setQueriesData<VideoInfo>({ queryKey: shortKeys.infoAll() }, (v) =>
      v?.uploader?.uid === uid ? { ...v, uploader: { ...v.uploader, isFollow } } : v,
    )
  return useMutation({
    mutationFn: ({ uid, isFollow }: { uid: number; isFollow: boolean }) =>
      api.post<{ isFollow: boolean }>('/api/app/mine/follow', { followUID: uid, isFollow }, { toast: true }),
    onMutate: async ({ uid, isFollow }) => {
      // Every clip's answer is marked, so none in flight may overwrite it.
      await qc.cancelQueries({ queryKey: shortKeys.infoAll() })
      mark(uid, isFollow)
    },
    onError: (_e, { uid, isFollow }) => mark(uid, !isFollow),
  })
}

export function sendPlay(id: number): void {
  api.post('/api/app/vid/play', { id }).catch(() => undefined)
}
