// Everything but the sign-in page needs the console session: without a
// token the page goes to /login (and comes back after); with one it asks
// GET /api/admin/session for who this is and what the role may open. A
// 401 there (expired, revoked, a phone-app token) goes to /login through
// the client's unauthorized handler (App.tsx).
import { useSyncExternalStore } from 'react'
import { Navigate, useLocation } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Spin } from 'antd'
import { getSession, sessionKeys } from '@/lib/session'
import { onSessionChange, token } from '@/lib/session-store'
import { ErrorState } from '@/components/ErrorState'
import { Shell } from './Shell'

export function Signed() {
  const tok = useSyncExternalStore(onSessionChange, token, token)
  const loc = useLocation()
  // No polling: a tab left open must not keep the session from idling out.
  const q = useQuery({ queryKey: sessionKeys.all, queryFn: getSession, enabled: tok !== null, staleTime: 60_000 })
  if (tok === null) {
    const next = loc.pathname + loc.search
    return <Navigate to={next === '/' ? '/login' : `/login?next=${encodeURIComponent(next)}`} replace />
  }
  if (q.isPending) return <Spin fullscreen />
  if (q.isError) return <ErrorState error={q.error} onRetry={() => void q.refetch()} />
  return <Shell session={q.data} />
}
