// The providers around the app: server state, the theme and language from
// the app store, the platform gate, the router.
import { lazy, useEffect, useLayoutEffect, useSyncExternalStore } from 'react'
import { QueryClientProvider } from '@tanstack/react-query'
import { BrowserRouter, useRoutes } from 'react-router'
import { forgetUserData } from '@/features/account/session'
import { getLang, setLang } from '@/i18n'
import { setUnauthorizedHandler } from '@/lib/api'
import { cookie, PREFIX } from '@/lib/storage'
import { useAppStore } from '@/stores/app'
import { useAppName } from '@/stores/config'
import { isSwitchingSession, useUserStore } from '@/stores/user'
import { UserPostsSlot } from '@/components/UserPostsSlot'
import { queryClient, retryOnReconnect } from './query-client'
import { buildRoutes } from './routes'
import { startRealtime } from './realtime'
import RootLayout from './RootLayout'
import { Gate } from './Gate'
import { startUp } from './startup'
import { readBoot } from './boot'

const routes = buildRoutes(RootLayout)

// The 帖子 tab of user pages: the community's list, loaded when first shown.
const UserPosts = lazy(() => import('@/features/community/components/UserPosts'))

// A 401 on a request that carried the token: the session is gone (expired
// or revoked elsewhere). Forget it and everything cached for it, so the
// next user of this device never sees it; the shell then sends the app to
// splash, which signs this device in again.
setUnauthorizedHandler(() => {
  if (isSwitchingSession()) return
  forgetUserData(queryClient)
  useUserStore.getState().logout()
})

// bootSteps is what the app does before its first render, one step per
// task (start.tsx runs them with a yield between): each is a few
// milliseconds of a slow phone's main thread, where together, at the
// modules' evaluation, they made one long task that held every tap.
// Home's first screen, when the server put it in the page, comes first
// (boot.ts), so the first calls (startup.ts) find what it answered; the
// calls then leave side by side, before any page renders.
export const bootSteps: (() => void)[] = [
  () => readBoot(queryClient),
  () => startUp(queryClient, location.pathname),
  () => {
    // Server events for the signed-in user (profile changes made elsewhere).
    startRealtime(queryClient)
    retryOnReconnect(queryClient)
  },
]

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

// THEME_COOKIE tells the server the theme the user chose in the app (none:
// follow the system), so the page it sends is in that theme before any
// script runs (internal/app/webapp.go themed); without it a user whose
// choice differs from the system's would see the system's for a moment.
export const THEME_COOKIE = PREFIX + 'theme'

export function rememberTheme(chosen: boolean | null) {
  if (chosen == null) cookie.remove(THEME_COOKIE)
  else cookie.set(THEME_COOKIE, chosen ? 'dark' : 'light', 365)
}

function AppRoutes() {
  return useRoutes(routes)
}

export function App() {
  const lang = useAppStore((s) => s.lang)
  const chosen = useAppStore((s) => s.dark)
  const system = useSystemDark()
  const darkWeb = useAppStore((s) => s.darkWeb)
  const dark = darkWeb || (chosen ?? system)
  // t() reads the module-level language; set it before this render's
  // children call it.
  if (getLang() !== lang) setLang(lang)
  const appName = useAppName()

  useLayoutEffect(() => applyTheme(dark), [dark])
  useEffect(() => rememberTheme(chosen), [chosen])
  // The operator's name for the app (remote APPNAME) titles the tab too.
  useEffect(() => {
    document.title = appName
  }, [appName])

  return (
    <QueryClientProvider client={queryClient}>
      <Gate>
        <BrowserRouter>
          <UserPostsSlot.Provider value={UserPosts}>
            {/* Keyed by language: every page re-renders its strings on a switch. */}
            <AppRoutes key={lang} />
          </UserPostsSlot.Provider>
        </BrowserRouter>
      </Gate>
    </QueryClientProvider>
  )
}
