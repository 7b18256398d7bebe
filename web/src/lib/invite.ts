// Invite codes in links and at first launch (docs/api.md, *Invitations*).
// A share link is <origin>/?ic=<code>; the landing page keeps the code so
// the first guest login can send it as cutInfos, and the server binds the
// new guest to its inviter. The alphabet matches the server's
// (internal/rewards): no 0/O, 1/I/L.
import { storage } from './storage'

const ALPHABET = /^[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{6,8}$/
const PENDING_KEY = 'invite_ic'

// normalizeInviteCode upper-cases and trims s; null when it is no code.
export function normalizeInviteCode(s: string): string | null {
  const c = s.trim().toUpperCase()
  return ALPHABET.test(c) ? c : null
}

// inviteCodeFromSearch reads ?ic= from a location search string.
export function inviteCodeFromSearch(search: string): string | null {
  let v: string | null = null
  try {
    v = new URLSearchParams(search).get('ic')
  } catch {
    return null
  }
  return v == null ? null : normalizeInviteCode(v)
}

// inviteLink makes the server's link absolute (it is relative when the
// install has no public URL).
export function inviteLink(link: string, origin: string): string {
  try {
    return new URL(link, origin).toString()
  } catch {
    return link
  }
}

// rememberInviteFromURL keeps the landing URL's code until the first guest
// login has sent it; a later link with another code replaces it.
export function rememberInviteFromURL(search: string): void {
  const c = inviteCodeFromSearch(search)
  if (c) storage.set(PENDING_KEY, c)
}

// pendingInviteText is the cutInfos of a guest login: "ic=<code>" or "".
// The address bar wins: the first login can start before start.tsx has
// kept the code (it begins while the app's modules load).
export function pendingInviteText(search: string = typeof location === 'undefined' ? '' : location.search): string {
  const now = inviteCodeFromSearch(search)
  if (now) return `ic=${now}`
  const c = storage.get<unknown>(PENDING_KEY)
  return typeof c === 'string' && normalizeInviteCode(c) ? `ic=${c}` : ''
}

export function forgetPendingInvite(): void {
  storage.remove(PENDING_KEY)
}

// maskCode shows the code in groups of three for reading aloud.
export function groupCode(code: string): string {
  return code.replace(/(.{3})(?=.)/g, '$1 ')
}
