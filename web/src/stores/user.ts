// The signed-in user. The token itself lives in src/lib/storage (storage and
// a cookie, read by the API client on every request); this store mirrors it
// so components re-render when it changes, and persists the user info.
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { getToken, setToken } from '@/lib/storage'
import { shouldSaveUser, type UserInfo } from '@/lib/user'
import { primaStorage } from './persist'

export interface UserState {
  token: string | null
  user: UserInfo | null
  // signingIn: the guest sign-in is under way (features/account/session.ts
  // ensureGuestSession). The shell draws the page meanwhile instead of
  // sending it to splash; personal calls wait for the token (lib/api.ts).
  signingIn: boolean
  // signInError: why the last guest sign-in failed, until the next try;
  // splash shows it with a retry.
  signInError: unknown
  // login stores a fresh session: token and the user it belongs to.
  login: (token: string, user: UserInfo) => void
  // setUser refreshes the user info; spec §5 keeps it only when uid > 0.
  setUser: (user: UserInfo | null | undefined) => void
  logout: () => void
}

type Persisted = Pick<UserState, 'user'>

export const useUserStore = create<UserState>()(
  persist(
    (set) => ({
      token: getToken(),
      user: null,
      signingIn: false,
      signInError: null,
      login: (token, user) => {
        setToken(token)
        set({ token, user: shouldSaveUser(user) ? user : null })
      },
      setUser: (user) => {
        if (shouldSaveUser(user)) set({ user })
      },
      logout: () => {
        setToken(null)
        set({ token: null, user: null })
      },
    }),
    {
      name: 'user',
      storage: primaStorage<Persisted>(),
      partialize: (s) => ({ user: s.user }),
      // The token is read fresh from storage: it may have been restored from
      // the cookie, or cleared by another tab, since the user was saved.
      merge: (persisted, current) => {
        const p = persisted as Persisted | undefined
        const token = getToken()
        return { ...current, token, user: token && p?.user && shouldSaveUser(p.user) ? p.user : null }
      },
    },
  ),
)

// isSignedIn: spec §4, logged in means a token is present (a guest has one).
export const isSignedIn = (s: UserState) => s.token != null

// While the app swaps one session for another (sign-out, then a new guest
// session), a 401 for the old token is expected and must not end the new
// one. The account feature sets this; the API's 401 handler reads it.
let switching = false

export function setSwitchingSession(on: boolean): void {
  switching = on
}

export function isSwitchingSession(): boolean {
  return switching
}
