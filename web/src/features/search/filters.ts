// The result pages' filters: access level (vipLevel) and module (moduleID)
// of GET /api/app/search, read from and written to the page's URL like the
// tab and sort. The server files an item under its vip level only, so
// vipLevel 0 finds free items and items sold for coins alike (a coin price
// is not a level): the chip says so.
import type { SearchTab } from './query'
import type { SearchKind } from './types'

// Access -1 is any level (the API's default); 0 no membership needed, 1 VIP,
// 2 super VIP.
export type Access = -1 | 0 | 1 | 2
export const ACCESS: Access[] = [-1, 0, 1, 2]

export interface Filter {
  vipLevel: Access
  moduleID: number // 0: any module
}

export const NO_FILTER: Filter = { vipLevel: -1, moduleID: 0 }

// The URL's names are the API's.
const VIP = 'vipLevel'
const MODULE = 'moduleID'

// FILTER_KINDS are the kinds whose items have an access level and a module:
// videos, shorts, galleries and posts. Topics and people have neither.
const FILTER_KINDS: SearchKind[] = ['video', 'short', 'gallery', 'post']

export function hasFilters(kind: SearchTab | null): boolean {
  return FILTER_KINDS.includes(kind as SearchKind)
}

// parseFilter reads the filter of a kind from the URL: anything but 0, 1, 2
// is any level, anything but a positive id is any module, and a kind
// without filters has none whatever the URL says.
export function parseFilter(kind: SearchKind, params: URLSearchParams): Filter {
  if (!hasFilters(kind)) return NO_FILTER
  const v = params.get(VIP)
  const vipLevel = v === '0' || v === '1' || v === '2' ? (Number(v) as Access) : -1
  const m = params.get(MODULE) ?? ''
  const n = /^[1-9][0-9]{0,15}$/.test(m) ? Number(m) : 0
  return { vipLevel, moduleID: Number.isSafeInteger(n) ? n : 0 }
}

// filterCount is how many filters are on (what the search call sends).
export function filterCount(f: Filter): number {
  return Object.keys(apiFilter(f)).length
}

export function isFiltered(f: Filter): boolean {
  return filterCount(f) > 0
}

// withFilter is params with f written in (the defaults left out, so an
// unfiltered URL stays as it was).
export function withFilter(params: URLSearchParams, f: Filter): URLSearchParams {
  const p = new URLSearchParams(params)
  if (f.vipLevel === -1) p.delete(VIP)
  else p.set(VIP, String(f.vipLevel))
  if (f.moduleID === 0) p.delete(MODULE)
  else p.set(MODULE, String(f.moduleID))
  return p
}

// withTab is params on another tab: its own sort, no module (every kind
// has modules of its own), and the access level kept when the new tab has
// one too (VIP videos, then VIP galleries, is one wish).
export function withTab(params: URLSearchParams, tab: SearchTab): URLSearchParams {
  const p = new URLSearchParams(params)
  if (tab === 'all') p.delete('kind')
  else p.set('kind', tab)
  p.delete('sort')
  p.delete(MODULE)
  if (!hasFilters(tab)) p.delete(VIP)
  return p
}

// apiFilter is what the search call sends: only the filters that are set.
export function apiFilter(f: Filter): { vipLevel?: number; moduleID?: number } {
  const out: { vipLevel?: number; moduleID?: number } = {}
  if (f.vipLevel !== -1) out.vipLevel = f.vipLevel
  if (f.moduleID !== 0) out.moduleID = f.moduleID
  return out
}
