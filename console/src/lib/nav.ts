// safeNext is where the sign-in page goes after signing in: the ?next= it
// was given when it is a path of this console (under the router's
// basename), else the overview. Anything else (another origin, a
// protocol-relative //host, backslashes) is ignored, so a link to the
// sign-in page cannot send the operator elsewhere.
export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\') || [...next].some((c) => c.charCodeAt(0) < 0x20)) return '/'
  if (next === '/login' || next.startsWith('/login?') || next.startsWith('/login/')) return '/'
  return next
}
