// The providers around the app: server state, the theme and language from
// the app store, the platform gate, the router.
import { useLayoutEffect, useSyncExternalStore } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { BrowserRouter, useRoutes } from 'react-router'
import { getLang, setLang } from '@/i18n'
import { setUnauthorizedHandler } from '@/lib/api'
import { prefetchHome } from '@/features/catalog/prefetch'
import { sourceQueryOptions } from '@/features/config/api/get-source'
import { useAppStore } from '@/stores/app'
import { isSwitchingSession, useUserStore } from '@/stores/user'
import { queryClient } from './query-client'
import { buildRoutes, preloadRoute, routeNameAt } from './routes'
import RootLayout from './RootLayout'
import { Gate } from './Gate'

const routes = buildRoutes(RootLayout)

// A 401 on a request that carried the token: the session is gone (expired
// or revoked elsewhere). Forgetting it is enough: the shell then sends the
// app to splash, which signs this device in again.
setUnauthorizedHandler(() => {
  if (!isSwitchingSession()) useUserStore.getState().logout()
})

// Ask for the gate's configuration now rather than on the first render
// (the gate's query finds it under way), download the page this URL shows
// meanwhile, and for a signed-in visit to home its first data too.
if (typeof location !== 'undefined') {
  void queryClient.prefetchQuery(sourceQueryOptions())
  preloadRoute(location.pathname)
  if (routeNameAt(location.pathname) === 'home' && useUserStore.getState().token) void prefetchHome(queryClient)
}

const DARK_QUERY = '(prefers-color-scheme: dark)'

function subscribeSystemDark(cb: () => void) {
  if (typeof matchMedia !== 'function') return () => {}
  const mq = matchMedia(DARK_QUERY)
  mq.addEventListener('change', cb)
  return () => mq.removeEventListener('change', cb)
}

function useSystemDark(): boolean {
  return useSyncExternalStore(subscribeSystemDark, () => typeof matchMedia === 'function' && matchMedia(DARK_QUERY).matches)
}

// applyTheme sets the attribute antd-mobile's dark theme and our own CSS
// variables key on, and tints the browser chrome to match.
export function applyTheme(dark: boolean) {
  document.documentElement.setAttribute('data-prefers-color-scheme', dark ? 'dark' : 'light')
  document.querySelectorAll('meta[name="theme-color"]').forEach((m) => m.setAttribute('content', dark ? '#000000' : '#ffffff'))
}

function AppRoutes() {
  return useRoutes(routes)
}

export function App() {
  const lang = useAppStore((s) => s.lang)
  const chosen = useAppStore((s) => s.dark)
  const system = useSystemDark()
  const dark = chosen ?? system
  // t() reads the module-level language; set it before this render's
  // children call it.
  if (getLang() !== lang) setLang(lang)

  useLayoutEffect(() => applyTheme(dark), [dark])

  return (
    <QueryClientProvider client={queryClient}>
      <Gate>
        <BrowserRouter>
          {/* Keyed by language: every page re-renders its strings on a switch. */}
          <AppRoutes key={lang} />
        </BrowserRouter>
      </Gate>
    </QueryClientProvider>
  )
}
