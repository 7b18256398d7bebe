// One QueryClient for the app. Retries only what a retry can fix (no
// answer, a timeout, a 5xx); a 4xx answer will not change on its own.
import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'

export function shouldRetry(failureCount: number, err: unknown): boolean {
  if (failureCount >= 2) return false
  if (!(err instanceof ApiError)) return false
  return err.kind === 'network' || err.kind === 'timeout' || err.status >= 500
}

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: shouldRetry,
      refetchOnWindowFocus: false,
      staleTime: 60_000,
    },
    mutations: { retry: false },
  },
})
