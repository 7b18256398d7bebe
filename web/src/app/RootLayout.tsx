// The app shell around every route: enforces the startup rule, records the
// page left after each navigation (current_op), restores scroll positions
// and shows a quiet placeholder while a page's code downloads.
import { Suspense, useEffect, useLayoutEffect, useRef } from 'react'
import { Navigate, Outlet, useLocation, useNavigationType } from 'react-router'
import { applyCurrentOp } from '@/lib/nav'
import { useUserStore } from '@/stores/user'
import { ConfigSync } from '@/features/config/ConfigSync'
import { hasCredentialParams } from '@/features/account/certificate'
import { afterSplash, splashState } from '@/lib/landing'
import { routeNameAt } from './routes'
import { RouteBoundary } from './RouteErrorBoundary'
import { PageFallback } from './PageFallback'

// useCurrentOp: spec §2, after each navigation current_op is set or cleared
// according to the page that was left.
function useCurrentOp() {
  const location = useLocation()
  const prev = useRef<{ key: string; name: string } | null>(null)
  useEffect(() => {
    const last = prev.current
    if (last && last.key !== location.key) applyCurrentOp(last.name)
    prev.current = { key: location.key, name: routeNameAt(location.pathname) }
  }, [location.key, location.pathname])
}

// Scroll positions by history entry: back and forward return to where the
// user was, a new page starts at the top.
const positions = new Map<string, number>()

function useScrollRestoration() {
  const { key } = useLocation()
  const navType = useNavigationType()
  const current = useRef(key)

  useEffect(() => {
    if ('scrollRestoration' in history) history.scrollRestoration = 'manual'
    let frame = 0
    const onScroll = () => {
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => positions.set(current.current, window.scrollY))
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => {
      cancelAnimationFrame(frame)
      window.removeEventListener('scroll', onScroll)
    }
  }, [])

  useLayoutEffect(() => {
    current.current = key
    const y = navType === 'POP' ? (positions.get(key) ?? 0) : 0
    window.scrollTo(0, y)
    // Content served from the query cache may lay out a frame later.
    if (y > 0) {
      const id = requestAnimationFrame(() => window.scrollTo(0, y))
      return () => cancelAnimationFrame(id)
    }
  }, [key, navType])
}

export default function RootLayout() {
  const location = useLocation()
  const token = useUserStore((s) => s.token)
  const signingIn = useUserStore((s) => s.signingIn)
  useCurrentOp()
  useScrollRestoration()

  // Spec §2: with no signed-in user the app goes to splash, carrying the
  // query string; splash signs the device in and moves on. It moves on to
  // the page that was asked for (in the router's state, lib/landing.ts): a
  // shared link opened on a first visit lands where it points, and a
  // session lost mid-visit (the API client's 401 handler clears the
  // token) comes back to the same page. Splash itself goes to /home.
  // The one exception: a link carrying an account certificate opens the
  // login page as it is (the credential rides in the fragment, which the
  // trip through splash would drop); signing in with it needs no token.
  //
  // A guest sign-in under way counts as arriving: the page is drawn at
  // once from the public answers (most of them already in the page,
  // app/boot.ts) while it runs, and splash moves on as soon as it has
  // started one, rather than after its answer. Personal calls wait for the
  // token (lib/api.ts). Only a sign-in that failed, or none started (a
  // device the gate has not let in yet), leaves the visitor on splash,
  // which shows why and retries.
  const certLink = location.pathname === '/mine/login' && hasCredentialParams(location)
  if (!token && !signingIn && location.pathname !== '/' && !certLink) {
    const state = splashState(location.pathname, location.search, location.hash)
    return <Navigate to={{ pathname: '/', search: location.search }} state={state} replace />
  }
  if (location.pathname === '/' && (token || signingIn)) {
    return <Navigate to={afterSplash(location.state, location.search)} replace />
  }
  // Each page has its own boundary (routes.tsx); this one is the last
  // resort, for a layout that fails. The configuration calls are public,
  // so they sync whether or not a session exists yet.
  return (
    <>
      <RouteBoundary>
        <Suspense fallback={<PageFallback />}>
          <Outlet />
        </Suspense>
      </RouteBoundary>
      <ConfigSync />
    </>
  )
}
