// GET /api/app/vid/report/reasons and POST /api/app/vid/report.
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { videoKeys } from '@/features/video/keys'
import type { ReportReason } from '@/features/video/types'

export function reasonsQueryOptions() {
  return queryOptions({
    queryKey: videoKeys.reasons(),
    queryFn: () => api.get<ReportReason[]>('/api/app/vid/report/reasons'),
    staleTime: 60 * 60_000,
  })
}

export function useReportReasons(enabled: boolean) {
  return useQuery({ ...reasonsQueryOptions(), enabled })
}

export function useReport(id: number) {
  return useMutation({
    mutationFn: (reason: string) => api.post<{ id: number; reported: boolean; isNew: boolean }>('/api/app/vid/report', { id, reason }, { toast: true }),
  })
}
