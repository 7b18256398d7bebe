// What the app asks the server for before anything renders. Every call that
// does not depend on another goes out at once: the public ones (remote
// configuration, home's modules and announcements, tags, delivery domains)
// need no token, and the guest sign-in goes beside them. Only what needs an
// answer waits for it: home's first sections need the module list (and, on
// a first visit, the configuration's default tab); user-specific calls
// (mine/info) wait for the token and are made by the pages that show them.
// Before this, a first visit went source -> guest login -> modules, tags,
// domains -> sections, four rounds before the first cover; now it is two
// (scripts/startup-rounds.mjs measures it).
import type { QueryClient } from '@tanstack/react-query'
import { ensureGuestSession } from '@/features/account/session'
import { prefetchHome } from '@/features/catalog/prefetch'
import { sourceQueryOptions } from '@/features/config/api/get-source'
import { tagsQueryOptions } from '@/features/config/api/get-tags'
import { api } from '@/lib/api'
import { inviteCodeFromSearch } from '@/lib/invite'
import { currentPlatform, gateDecision } from '@/lib/platform'
import { useConfigStore } from '@/stores/config'
import { useUserStore } from '@/stores/user'
import { startLines } from './lines'
import { preloadRoute, routeNameAt } from './routes'

// mayStartSession: the guest sign-in may go out before the gate's answer
// only when this device gets in whatever the operator set (an iPhone passes
// every mode) or the configuration cached from the last visit lets it in.
// Otherwise a gated desktop would get an account it can never use; splash
// signs it in once the gate has passed.
export function mayStartSession(): boolean {
  const platform = currentPlatform()
  if (platform === 'ios') return true
  const cached = useConfigStore.getState().source
  return cached != null && gateDecision(cached.gate?.mode, platform, cached.gate?.redirectURL) === 'pass'
}

export function startUp(client: QueryClient, pathname: string): void {
  const hadSource = useConfigStore.getState().source != null
  const source = client.fetchQuery(sourceQueryOptions()).then((s) => {
    // The gate and home's default tab read the store: fill it as soon as
    // the answer is here, not a render later.
    useConfigStore.getState().setSource(s)
    return s
  })
  source.catch(() => undefined) // the gate shows the failure and a retry
  // The guest sign-in goes first among the calls that need no answer: the
  // shell draws the page while it runs (RootLayout), so splash's own code
  // is wanted only when no session is on its way.
  if (!useUserStore.getState().token && mayStartSession()) ensureGuestSession().catch(() => undefined) // splash shows it
  const name = routeNameAt(pathname)
  const { token, signingIn } = useUserStore.getState()
  // The page's scripts in the next task: asking for them puts a link in
  // the head for each of the page's files (a detail page has some twenty),
  // main-thread work better not added to this task's.
  const page = name === 'splash' && (token || signingIn) ? '/home' : pathname
  setTimeout(() => preloadRoute(page), 0)

  if (name === 'home' || name === 'splash') {
    // With a cached configuration the default tab is known now; on a first
    // visit the sections wait for the configuration, which left with the
    // modules, so that costs no extra round.
    void prefetchHome(client, hadSource ? undefined : source)
  }
  void client.prefetchQuery(tagsQueryOptions())
  // The delivery lines: domain/h5, then the line checks (lines.ts).
  void startLines(client)

  countLandingVisit(typeof location === 'undefined' ? '' : location.search)
}

export const VISIT_PATH = '/api/app/userinvite/visit'

// countLandingVisit: a page opened with a share link's ?ic=CODE counts one
// visit of that link (POST userinvite/visit, the promoter's promotion
// data) once this device has a session: at once when it has one, else
// right after the guest sign-in that start-up (or splash) makes, which
// sends the same code to bind the inviter. Once per page load; the server
// counts a device once a day per code whatever arrives, and answers a bad
// or own code with counted false. Silent: a landing never fails on a link.
export function countLandingVisit(search: string): void {
  const code = inviteCodeFromSearch(search)
  if (!code) return
  const send = () => void api.post(VISIT_PATH, { code }).catch(() => undefined)
  if (useUserStore.getState().token) return send()
  const stop = useUserStore.subscribe((s) => {
    if (!s.token) return
    stop()
    send()
  })
}
