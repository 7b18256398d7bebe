// GET /api/app/vid/moduleSection/change: another batch of one section's
// videos ("换一批"). Each call answers a different batch, so it is used as a
// mutation: the caller keeps the batch it got.
import { useMutation } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Video } from '@/features/catalog/types'

export function changeSection(subModuleID: number, pageSize: number): Promise<{ list: Video[] }> {
  return api.get<{ list: Video[] }>('/api/app/vid/moduleSection/change', { subModuleID, pageSize }, { toast: true })
}

const sameIds = (a: Video[], b: Video[]) => a.length === b.length && a.every((v, i) => v.id === b[i].id)

// The server picks a batch at random, so it can answer the batch already on
// screen; a tap on "换一批" that changes nothing looks broken, so ask again
// (a few times at most: a small section may have only one batch).
export async function changeSectionFrom(subModuleID: number, pageSize: number, shown: Video[]): Promise<Video[]> {
  let list: Video[] = []
  for (let i = 0; i < 3; i++) {
    list = (await changeSection(subModuleID, pageSize)).list
    if (!sameIds(list, shown)) break
  }
  return list
}

export function useChangeSection(subModuleID: number, pageSize: number) {
  return useMutation({ mutationFn: (shown: Video[]) => changeSectionFrom(subModuleID, pageSize, shown) })
}
