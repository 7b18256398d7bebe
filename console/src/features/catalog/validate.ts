// The server's rules for what the content pages send, checked in the
// browser first so the operator sees the problem next to the field
// (internal/catalog: source_admin.go CheckSource, admin_announcements.go
// CheckLink/CheckImage, lines.go normalizeLine). The server checks again:
// these only spare a round trip. A problem is a message key of
// i18n/sections/catalog.ts and the entry's number (from 1).

export interface Problem {
  key: string
  n?: number
}

export const SOURCE_KEYS = [
  'APPNAME', 'OFFICALWEBSITEADDRESS', 'COMMUNITYLAYOUT', 'GROUP', 'CUST', 'GUIDE', 'IMAGE', 'VID', 'LAND', 'PROXYRULE', 'FAQ',
  'QRCODE', 'WELFARE', 'ACT', 'AppStore', 'VIPCARD', 'MODULESELECTINDEX', 'ANDROIDVERSION', 'IOSVERSION', 'UP', 'NAVOPEN', 'APPS',
] as const
export type SourceKeyName = (typeof SOURCE_KEYS)[number]

export const MAX_SOURCE_ENTRIES = 50
const MAX_TITLE = 100
const MAX_URL = 2000
const MAX_ICON = 500
const MAX_DESC = 200
const MAX_WEIGHT = 1_000_000
export const MAX_SORT = 1_000_000
export const MAX_LINK = 500
export const MAX_LINES = 20

// Keys whose url the app opens as a link, and keys shown by their title.
export const LINK_KEYS: ReadonlySet<string> = new Set(['GROUP', 'CUST', 'APPS'])
export const TITLED_KEYS: ReadonlySet<string> = new Set(['GROUP', 'FAQ', 'APPS', 'CUST'])

const runes = (s: string) => Array.from(s).length
const schemeOf = (u: string) => /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(u)?.[1]?.toLowerCase() ?? ''

// isLink: an app path ("/mine/help", never "//host") or an absolute http(s)
// URL with a host, without spaces.
export function isLink(u: string): boolean {
  if (u.startsWith('/')) return !u.startsWith('//') && !/[\\ ]/.test(u)
  if (u.includes(' ')) return false
  const s = schemeOf(u)
  if (s !== 'http' && s !== 'https') return false
  try {
    return new URL(u).host !== ''
  } catch {
    return false
  }
}

// hasOtherScheme: a URL of a scheme other than http(s) (javascript:, data:).
export function hasOtherScheme(u: string): boolean {
  const s = schemeOf(u)
  return s !== '' && s !== 'http' && s !== 'https'
}

// isImage: a picture address, an http(s) URL or a /media/ path.
export function isImage(u: string): boolean {
  return u.startsWith('/') ? u.startsWith('/media/') && isLink(u) : isLink(u)
}

const namedTarget = /^(prima:\/\/)?[A-Za-z0-9][A-Za-z0-9._~\-/?=&%]*$/

// checkLink: what an ad, banner or announcement may link to: nothing, an
// http(s) URL, an app path, or a named page of the app (prima://vipcenter).
export function checkLink(raw: string): Problem | null {
  const u = raw.trim()
  if (u === '') return null
  if (runes(u) > MAX_LINK) return { key: 'catalog.err.linkLong' }
  if (isLink(u)) return null
  if (u.toLowerCase().startsWith('prima://') && namedTarget.test('prima://' + u.slice(8))) return null
  if (!hasOtherScheme(u) && !u.startsWith('/') && namedTarget.test(u)) return null
  return { key: 'catalog.err.link' }
}

export function checkImage(raw: string): Problem | null {
  const u = raw.trim()
  if (u === '') return { key: 'catalog.err.imageRequired' }
  if (runes(u) > MAX_ICON || !isImage(u)) return { key: 'catalog.err.image' }
  return null
}

// A showing window: unix seconds, 0 = no end; the end after the start.
export function checkWindow(startsAt: number, endsAt: number): Problem | null {
  if (endsAt !== 0 && endsAt <= startsAt) return { key: 'catalog.err.window' }
  return null
}

export interface EntryDraft {
  id?: number
  title: string
  url: string
  weight: number
  icon?: string
  desc?: string
}

// checkSource is CheckSource: the first problem of key's list, or null.
export function checkSource(key: string, entries: EntryDraft[]): Problem | null {
  if (!(SOURCE_KEYS as readonly string[]).includes(key)) return { key: 'catalog.err.key' }
  if (entries.length > MAX_SOURCE_ENTRIES) return { key: 'catalog.err.tooMany' }
  const seen = new Set<number>()
  for (const [i, e] of entries.entries()) {
    const n = i + 1
    const title = e.title.trim()
    const url = e.url.trim()
    const icon = (e.icon ?? '').trim()
    const desc = (e.desc ?? '').trim()
    if (e.id !== undefined) {
      if (seen.has(e.id)) return { key: 'catalog.err.dupId', n }
      seen.add(e.id)
    }
    if (TITLED_KEYS.has(key) && title === '') return { key: 'catalog.err.title', n }
    if (runes(title) > MAX_TITLE) return { key: 'catalog.err.titleLong', n }
    if (runes(url) > MAX_URL) return { key: 'catalog.err.urlLong', n }
    if (!Number.isInteger(e.weight) || e.weight < 0 || e.weight > MAX_WEIGHT) return { key: 'catalog.err.weight', n }
    if (key === 'FAQ') {
      if (url === '') return { key: 'catalog.err.answer', n }
    } else {
      if (/[\r\n\t]/.test(url)) return { key: 'catalog.err.urlBreak', n }
      if (LINK_KEYS.has(key) && url === '') return { key: 'catalog.err.urlRequired', n }
      if (url !== '' && LINK_KEYS.has(key) && !isLink(url)) return { key: 'catalog.err.url', n }
      if (url !== '' && !LINK_KEYS.has(key) && hasOtherScheme(url)) return { key: 'catalog.err.url', n }
    }
    if (key !== 'APPS' && (icon !== '' || desc !== '')) return { key: 'catalog.err.iconOnlyApps', n }
    if (icon !== '' && (runes(icon) > MAX_ICON || !isImage(icon))) return { key: 'catalog.err.icon', n }
    if (runes(desc) > MAX_DESC) return { key: 'catalog.err.descLong', n }
  }
  return null
}

export type LineList = 'api' | 'image' | 'video' | 'fallback'

// checkLine is normalizeLine's verdict: a line is an origin (no path
// beyond /, no query); a fallback source names a file (a path). Neither
// carries credentials or a fragment.
export function checkLine(list: LineList, raw: string): Problem | null {
  const s = raw.trim()
  if (s === '') return { key: 'catalog.err.lineEmpty' }
  if (s.length > 512 || s.includes('#') || /\s/.test(s)) return { key: 'catalog.err.line' }
  const scheme = schemeOf(s)
  if (scheme !== 'http' && scheme !== 'https') return { key: 'catalog.err.line' }
  let u: URL
  try {
    u = new URL(s)
  } catch {
    return { key: 'catalog.err.line' }
  }
  if (u.host === '' || u.username !== '' || u.password !== '') return { key: 'catalog.err.line' }
  if (list === 'fallback') return u.pathname === '' || u.pathname === '/' ? { key: 'catalog.err.fallbackPath' } : null
  if ((u.pathname !== '' && u.pathname !== '/') || u.search !== '' || s.includes('?')) return { key: 'catalog.err.lineOrigin' }
  return null
}

// checkLines: the first problem of the four lists, with the list and the
// entry's number.
export function checkLines(l: Record<LineList, string[]>): (Problem & { list: LineList }) | null {
  for (const list of ['api', 'image', 'video', 'fallback'] as const) {
    if (l[list].length > MAX_LINES) return { key: 'catalog.err.linesTooMany', list }
    for (const [i, e] of l[list].entries()) {
      const p = checkLine(list, e)
      if (p) return { ...p, n: i + 1, list }
    }
  }
  return null
}

// Unix seconds <-> the console's date pickers (milliseconds).
export const toSeconds = (ms: number | null | undefined): number => (ms ? Math.floor(ms / 1000) : 0)
export const fromSeconds = (s: number): number | null => (s > 0 ? s * 1000 : null)
