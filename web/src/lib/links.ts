// In-app link handling (spec §2). Ads, announcements, banners and remote
// configuration carry a link string in one of several fields; resolveLink
// turns it into either an external URL (opened in a new window) or an app
// route.
//
// Link strings an operator may write, in the order they are tried:
//   https://… or http://…        external, as is
//   www.…                        external, https:// prepended
//   /any/app/path?q=1            an app route, as is (must not start with //)
//   prima://<target>[/…][?query] a named target (below)
//   <target>[/…][?query]         the same without the scheme
//
// Named targets (case and - _ space insensitive; several spellings each):
//   shortvideo                        -> /shortvideo
//   videoimage | gallerycategory      -> /galleryCategory
//   cjactivity                        -> /cj_activity
//   postdetail/<id> | cdetail/<id>    -> /cdetail/<id>  (id: last path segment, or ?id=)
//   share | shareyaoqing              -> /mine/shareyaoqing
//   welfare | userfulitask            -> /mine/userfulitask
//   applicationcenter                 -> /mine/applicationcenter
//   vip | vippage | vipcenter         -> /mine/vipcenter
//   cointopup | recharge | usercoinchongzhi -> /mine/usercoinchongzhi
//   accountcode                       -> /mine/accountcode
//   community | tocommunity           -> /community
//   index | toindex | home            -> /home
// A query string after a named target is kept (e.g. share?type=2 ->
// /mine/shareyaoqing?type=2). No link, an unknown target, a post detail
// without an id, and any other scheme (javascript:, mailto:) go to /home.

export interface LinkItem {
  id?: number | string
  title?: string
  href?: string | null
  link?: string | null
  url?: string | null
  linkUrl?: string | null
  quickLinkUrl?: string | null
  jumpLink?: string | null
}

export type Link = { kind: 'external'; url: string } | { kind: 'route'; path: string }

export const HOME_PATH = '/home'
export const LINK_SCHEME = 'prima://'

const LINK_FIELDS = ['href', 'link', 'url', 'linkUrl', 'quickLinkUrl', 'jumpLink'] as const

const SIMPLE: Record<string, string> = {
  shortvideo: '/shortvideo',
  videoimage: '/galleryCategory',
  gallerycategory: '/galleryCategory',
  cjactivity: '/cj_activity',
  share: '/mine/shareyaoqing',
  shareyaoqing: '/mine/shareyaoqing',
  welfare: '/mine/userfulitask',
  userfulitask: '/mine/userfulitask',
  applicationcenter: '/mine/applicationcenter',
  vip: '/mine/vipcenter',
  vippage: '/mine/vipcenter',
  vipcenter: '/mine/vipcenter',
  cointopup: '/mine/usercoinchongzhi',
  recharge: '/mine/usercoinchongzhi',
  usercoinchongzhi: '/mine/usercoinchongzhi',
  accountcode: '/mine/accountcode',
  community: '/community',
  tocommunity: '/community',
  index: '/home',
  toindex: '/home',
  home: '/home',
}

const POST_DETAIL = new Set(['postdetail', 'cdetail'])

// linkOf is the item's link: the first of its link fields that holds a
// non-blank string.
export function linkOf(item: LinkItem | string | null | undefined): string {
  if (typeof item === 'string') return item.trim()
  if (!item) return ''
  for (const f of LINK_FIELDS) {
    const v = item[f]
    if (typeof v === 'string' && v.trim() !== '') return v.trim()
  }
  return ''
}

function route(path: string): Link {
  return { kind: 'route', path }
}

export function resolveLink(item: LinkItem | string | null | undefined): Link {
  const s = linkOf(item)
  if (s === '') return route(HOME_PATH)
  if (/^https?:\/\/\S/i.test(s)) return { kind: 'external', url: s }
  if (/^www\.\S/i.test(s)) return { kind: 'external', url: 'https://' + s }
  // "//host" is a protocol-relative URL, not an app path.
  if (s.startsWith('/')) return route(s.startsWith('//') ? HOME_PATH : s)

  const bare = s.toLowerCase().startsWith(LINK_SCHEME) ? s.slice(LINK_SCHEME.length) : s
  const hashless = bare.split('#')[0]
  const q = hashless.indexOf('?')
  const pathPart = q < 0 ? hashless : hashless.slice(0, q)
  const query = q < 0 ? '' : hashless.slice(q)
  const segments = pathPart.split('/').filter((p) => p !== '')
  if (segments.length === 0) return route(HOME_PATH)
  const target = segments[0].toLowerCase().replace(/[-_\s]/g, '')

  if (POST_DETAIL.has(target)) {
    const id = segments.length > 1 ? segments[segments.length - 1] : new URLSearchParams(query).get('id')
    return id ? route('/cdetail/' + encodeURIComponent(id)) : route(HOME_PATH)
  }
  const path = SIMPLE[target]
  return path ? route(path + (query.length > 1 ? query : '')) : route(HOME_PATH)
}

// openLink follows an item's link: external URLs in a new window without
// giving it a handle on this one, app routes through the router.
export function openLink(
  item: LinkItem | string | null | undefined,
  navigate: (path: string) => void,
  open: ((url: string, target: string, features: string) => unknown) | undefined = typeof window === 'undefined'
    ? undefined
    : window.open.bind(window),
): Link {
  const l = resolveLink(item)
  if (l.kind === 'external') open?.(l.url, '_blank', 'noopener')
  else navigate(l.path)
  return l
}
