// Session changes that take more than one call: starting a guest session,
// and signing out (which ends in a fresh guest session, so the app always
// has a user to show).
import type { QueryClient } from '@tanstack/react-query'
import { setSessionPending } from '@/lib/api'
import { setSwitchingSession, useUserStore } from '@/stores/user'
import { guestLogin } from './api/guest-login'
import { logout } from './api/logout'

export async function startGuestSession() {
  const r = await guestLogin()
  useUserStore.getState().login(r.token, r.user)
  return r
}

let pending: Promise<void> | null = null

// ensureGuestSession signs this device in as a guest unless a session
// exists. Start-up calls it beside the public calls and splash calls it
// again: both get the one request in flight. While it is in flight the
// store says so (signingIn: the shell draws the page meanwhile) and the
// API client holds personal calls until the token is here; a failure is
// kept for splash to show (signInError).
export function ensureGuestSession(): Promise<void> {
  if (useUserStore.getState().token) return Promise.resolve()
  if (pending) return pending
  const done = (signInError: unknown) => {
    pending = null
    setSessionPending(null)
    useUserStore.setState({ signingIn: false, signInError })
  }
  pending = startGuestSession().then(
    () => done(null),
    (e: unknown) => {
      done(e)
      throw e
    },
  )
  setSessionPending(pending)
  useUserStore.setState({ signingIn: true, signInError: null })
  return pending
}

// forgetUserData drops everything cached for the user who is leaving: every
// query (user-specific or not, so nothing fetched with their token can show
// to the next user) and the persisted user info. Used on sign-out and when a
// 401 says the session is gone.
export function forgetUserData(queryClient: QueryClient): void {
  queryClient.cancelQueries().catch(() => undefined)
  queryClient.clear()
}

// signOut revokes the token on the server, drops everything cached for the
// old user and signs this device in as a guest again. The old session is
// swapped for the new one in one step, so no screen sees "no user".
export async function signOut(queryClient: QueryClient): Promise<void> {
  setSwitchingSession(true)
  try {
    // A failed revoke (network, already revoked) does not keep the user in:
    // the token is forgotten here either way.
    await logout().catch(() => undefined)
    forgetUserData(queryClient)
    try {
      await startGuestSession()
    } catch (e) {
      // No guest session: drop the old one; the app goes to splash, which
      // retries the guest login with its own error screen.
      useUserStore.getState().logout()
      throw e
    }
  } finally {
    setSwitchingSession(false)
  }
}
