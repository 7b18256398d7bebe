// The welfare calls: check-in, tasks, points prizes. Every key carries the
// token (all of it is personal); a grant tells the app shell that money
// moved, so balances and the user info (points) refetch everywhere.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { moneyMoved } from '@/lib/purchase'
import type { CheckinResult, CheckinState, PointRecords, Prizes, Task } from '@/features/welfare/model'

export const welfareKeys = {
  all: ['welfare'] as const,
  checkin: (token: string | null) => [...welfareKeys.all, 'checkin', token] as const,
  tasks: (token: string | null) => [...welfareKeys.all, 'tasks', token] as const,
  prizes: (token: string | null) => [...welfareKeys.all, 'prizes', token] as const,
  records: (token: string | null) => [...welfareKeys.all, 'records', token] as const,
}

export function useCheckin(token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: welfareKeys.checkin(token),
      queryFn: () => api.get<CheckinState>('/api/app/active/checkin'),
      enabled: token != null,
    }),
  )
}

export function useTasks(token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: welfareKeys.tasks(token),
      queryFn: () => api.get<Task[]>('/api/app/active/task'),
      enabled: token != null,
    }),
  )
}

export function usePrizes(token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: welfareKeys.prizes(token),
      queryFn: () => api.get<Prizes>('/api/app/active/point/prize'),
      enabled: token != null,
    }),
  )
}

// useRecords is the latest points entries (the first page only).
export function useRecords(token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: welfareKeys.records(token),
      queryFn: () => api.get<PointRecords>('/api/app/active/point/records', { pageSize: 10 }),
      enabled: token != null,
    }),
  )
}

function useGrant<B, R>(fn: (body: B) => Promise<R>) {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: fn,
    onSuccess: () => moneyMoved('welfare'),
    onSettled: () => void qc.invalidateQueries({ queryKey: welfareKeys.all }),
  })
}

export function useCheckIn() {
  return useGrant((_: void) => api.post<CheckinResult>('/api/app/active/checkin', {}))
}

export function useClaim() {
  return useGrant((id: number) =>
    api.post<{ taskId: number; points: number }>('/api/app/active/task/receive', { id }),
  )
}

export function useExchange() {
  return useGrant((body: { id: number; idempotencyKey: string }) =>
    api.post<{ points: number }>('/api/app/active/point/prize', body),
  )
}
