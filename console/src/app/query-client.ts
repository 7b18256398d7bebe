// One QueryClient. A 4xx will not change by asking again (401 already went
// to the sign-in page, 403 is the role), so only a lost connection or a 5xx
// is retried, twice. Lists are fresh for 15 s: operators act on what they
// see, so a revisit refetches soon.
import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'

export function shouldRetry(failures: number, err: unknown): boolean {
  if (!(err instanceof ApiError) || failures >= 2) return false
  return err.kind === 'network' || err.status >= 500
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: shouldRetry, staleTime: 15_000, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  })
}

export const queryClient = createQueryClient()
