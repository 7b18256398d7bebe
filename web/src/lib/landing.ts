// Where a visit goes after splash. A visitor without a session who opened a
// link to a page (a shared /detail/{id} or /cdetail/{id}, an invite to
// /mine/register?ic=…) passes through splash for the guest sign-in, and
// lands on that page afterwards, not on home. The page rides in the
// router's state (history.state), never in the URL, so splash's own URL
// carries the query as the spec says and no crafted link can pick the
// destination. It is checked when read all the same: only a path of this
// app, never another origin (//host, /\host, https://…), and never splash
// itself.

// SplashState is the router state the shell hands splash.
export interface SplashState {
  from: string
}

const BASE = 'https://app.invalid'
const MAX_LEN = 2048

// appPathOf is value as a path, query and fragment of this app, or null
// when it is anything else.
export function appPathOf(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_LEN || !value.startsWith('/')) return null
  let u: URL
  try {
    u = new URL(value, BASE)
  } catch {
    return null
  }
  // The URL parser drops tabs and newlines and reads \ as /: what it makes
  // of the value, not the value's first characters, says where it goes.
  // Nor may the result read as another host: /..//host is //host once its
  // dot segments are gone.
  if (u.origin !== BASE || u.pathname === '/' || u.pathname.startsWith('//')) return null
  return u.pathname + u.search + u.hash
}

// splashState is the state the shell gives splash for the page at path.
export function splashState(pathname: string, search: string, hash: string): SplashState | null {
  const from = appPathOf(pathname + search + hash)
  return from ? { from } : null
}

// afterSplash is where splash goes once the device is signed in: the page
// the visitor asked for, else home with splash's query (spec §2).
export function afterSplash(state: unknown, search: string): string {
  const from = appPathOf((state as Partial<SplashState> | null)?.from)
  return from ?? '/home' + search
}
