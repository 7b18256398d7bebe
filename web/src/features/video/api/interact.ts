// POST /api/app/vid/like and vid/collect: optimistic toggles. The detail in
// the cache flips at once and rolls back when the server refuses; the
// server's answer then becomes the truth. The mine lists are marked stale.
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { videoKeys } from '@/features/video/keys'
import type { VideoDetail } from '@/features/video/types'

export function likeVideo(id: number, isLike: boolean) {
  return api.post<{ isLike: boolean; likeCount: number }>('/api/app/vid/like', { id, isLike }, { toast: true })
}

export function collectVideo(id: number, isCollect: boolean) {
  return api.post<{ isCollect: boolean }>('/api/app/vid/collect', { id, isCollect }, { toast: true })
}

type Patch = Partial<Pick<VideoDetail, 'isLike' | 'isCollect' | 'likeCount'>>

function useToggle<R>(
  id: number,
  token: string | null,
  send: (on: boolean) => Promise<R>,
  optimistic: (d: VideoDetail, on: boolean) => Patch,
  settled: (r: R) => Patch,
) {
  const qc = useQueryClient()
  const key = videoKeys.detail(id, token)
  return useMutation({
    mutationFn: send,
    onMutate: async (on: boolean) => {
      await qc.cancelQueries({ queryKey: key })
      const before = qc.getQueryData<VideoDetail>(key)
      if (before) qc.setQueryData<VideoDetail>(key, { ...before, ...optimistic(before, on) })
      return { before }
    },
    onError: (_e, _on, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before)
    },
    onSuccess: (r) => {
      qc.setQueryData<VideoDetail>(key, (d) => (d ? { ...d, ...settled(r) } : d))
      void qc.invalidateQueries({ queryKey: videoKeys.mineAll() })
    },
  })
}

export function useLike(id: number, token: string | null) {
  return useToggle(
    id,
    token,
    (on) => likeVideo(id, on),
    (d, on) => ({ isLike: on, likeCount: Math.max(0, d.likeCount + (on === d.isLike ? 0 : on ? 1 : -1)) }),
    (r) => ({ isLike: r.isLike, likeCount: r.likeCount }),
  )
}

export function useCollect(id: number, token: string | null) {
  return useToggle(
    id,
    token,
    (on) => collectVideo(id, on),
    (_d, on) => ({ isCollect: on }),
    (r) => ({ isCollect: r.isCollect }),
  )
}
