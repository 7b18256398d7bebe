// One QueryClient for the app. Every wait ends: a request times out
// (REQUEST_TIMEOUT_MS), and only what a retry can fix is retried, a bounded
// number of times (no answer or a 5xx twice, a timeout once: on a network
// that slow another 30 s wait helps nobody); a 4xx will not change on its
// own, and nothing is retried while the browser says it is offline. Queries
// run even offline (networkMode 'always') so they fail at once and the page
// shows its offline state instead of a skeleton that waits forever; when
// the connection comes back, retryOnReconnect fetches what failed.
import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '@/lib/api'
import { browserOnline, onOnline } from '@/lib/network'

export const MAX_RETRIES = 2
export const MAX_TIMEOUT_RETRIES = 1

export function shouldRetry(failureCount: number, err: unknown, online = browserOnline()): boolean {
  if (!online) return false
  if (!(err instanceof ApiError)) return false
  if (err.kind === 'timeout') return failureCount < MAX_TIMEOUT_RETRIES
  if (failureCount >= MAX_RETRIES) return false
  return err.kind === 'network' || err.status >= 500
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (n, err) => shouldRetry(n, err),
        networkMode: 'always',
        refetchOnWindowFocus: false,
        // retryOnReconnect does this for failed queries only.
        refetchOnReconnect: false,
        staleTime: 60_000,
      },
      mutations: { retry: false, networkMode: 'always' },
    },
  })
}

// retryOnReconnect: each time the connection comes back, every query on
// screen that failed is fetched again, so an offline page recovers without
// a tap. It returns the unsubscribe.
export function retryOnReconnect(client: QueryClient, subscribe: (fn: () => void) => () => void = onOnline): () => void {
  return subscribe(() => {
    void client.refetchQueries({ type: 'active', predicate: (q) => q.state.status === 'error' })
  })
}

export const queryClient = createQueryClient()
