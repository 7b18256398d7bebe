// GET /api/app/vid/source, read for the lists the support pages show (FAQ,
// GROUP, APPS). Its own query (features do not import each other), kept
// fresher than the start-up copy so an operator's edit shows within a minute.
import { useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { supportKeys } from '@/features/support/keys'
import type { SupportEntry } from '@/features/support/types'

export type SupportKey = 'FAQ' | 'GROUP' | 'APPS'

export function getSource(): Promise<Record<string, unknown>> {
  return api.get<Record<string, unknown>>('/api/app/vid/source')
}

// entries picks one key's list, dropping anything that is not an entry.
export function entries(src: Record<string, unknown> | undefined, key: SupportKey): SupportEntry[] {
  const list = src?.[key]
  if (!Array.isArray(list)) return []
  return list.filter((e): e is SupportEntry => e != null && typeof e === 'object' && typeof (e as SupportEntry).title === 'string')
}

export function useSourceList(key: SupportKey) {
  return useQuery({
    queryKey: supportKeys.source(),
    queryFn: getSource,
    staleTime: 60_000,
    select: (src) => entries(src, key),
  })
}
