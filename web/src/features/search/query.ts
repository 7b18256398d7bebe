// The rules of a search word on the client, mirroring the server's
// (docs/api.md, *Search*): control characters are dropped, blanks trimmed;
// empty or longer than 100 characters is not sent. The tabs, sorts and
// the URL's parameters are read here too, so a hand-edited URL cannot
// show a tab that does not exist.
import type { MessageKey } from '@/i18n'
import type { SearchKind } from './types'

export const MAX_QUERY_CHARS = 100

// C0, DEL and C1 controls, plus the bidi overrides that could reorder text.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

export function cleanQuery(s: string): string {
  return s.replace(CONTROL, ' ').replace(/\s+/g, ' ').trim()
}

export function chars(s: string): number {
  return Array.from(s).length
}

// queryProblem: the message to show instead of searching, or null.
export function queryProblem(s: string): MessageKey | null {
  const q = cleanQuery(s)
  if (q === '') return 'search.empty'
  if (chars(q) > MAX_QUERY_CHARS) return 'search.tooLong'
  return null
}

export const KINDS: SearchKind[] = ['video', 'short', 'gallery', 'post', 'topic', 'user']
export type SearchTab = 'all' | SearchKind
export const TABS: SearchTab[] = ['all', ...KINDS]

export function parseTab(v: string | null): SearchTab {
  return TABS.includes(v as SearchTab) ? (v as SearchTab) : 'all'
}

export function parseKind(v: string | null): SearchKind | null {
  return KINDS.includes(v as SearchKind) ? (v as SearchKind) : null
}

export type SearchSort = 'relevance' | 'new' | 'plays'

// sortsOf: the sort chips a kind offers (none: relevance only).
export function sortsOf(kind: SearchKind): SearchSort[] {
  if (kind === 'video' || kind === 'short') return ['relevance', 'new', 'plays']
  if (kind === 'gallery' || kind === 'post') return ['relevance', 'new']
  return []
}

export function parseSort(kind: SearchKind, v: string | null): SearchSort {
  return sortsOf(kind).includes(v as SearchSort) ? (v as SearchSort) : 'relevance'
}

// resultURL is the result page of a word (and a tab).
export function resultURL(q: string, tab: SearchTab = 'all'): string {
  const p = new URLSearchParams({ keyword: q })
  if (tab !== 'all') p.set('kind', tab)
  return `/search/result?${p.toString()}`
}

export function moreURL(q: string, kind: SearchKind): string {
  return `/search/more?${new URLSearchParams({ keyword: q, kind }).toString()}`
}
