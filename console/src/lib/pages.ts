// The console's pages and the section of GET /api/admin/session each
// belongs to. The menu shows a page only when the operator's role has its
// section; a page opened by its URL anyway says "not allowed" (and the
// server refuses its calls). section null: every operator (their own
// sessions and keys). The settings section has no pages yet (backups,
// owner only, are under 运维).
import type { MessageKey } from '@/i18n'
import type { Role, Section } from './session'

export interface PageEntry {
  path: string // under /admin
  group: string // the menu entry it sits under
  label: MessageKey
  section: Section | null
  hint?: MessageKey // the overview's line about it
  // roles: only these roles (and owner) use the page although others
  // have its section (the support desk's pages in the people section,
  // whose calls the server allows support only).
  roles?: readonly Role[]
}

export const pages: PageEntry[] = [
  { path: '/', group: 'dashboard', label: 'nav.dashboard', section: 'dashboard' },
  { path: '/content/modules', group: 'content', label: 'nav.content.modules', section: 'content', hint: 'dash.section.content' },
  { path: '/content/videos', group: 'content', label: 'nav.content.videos', section: 'content' },
  { path: '/content/shorts', group: 'content', label: 'content.shorts', section: 'content' },
  // issue 20: catalog (features/catalog)
  { path: '/content/galleries', group: 'content', label: 'catalog.nav.galleries', section: 'content' },
  { path: '/content/tags', group: 'content', label: 'catalog.nav.tags', section: 'content' },
  { path: '/content/announcements', group: 'content', label: 'catalog.nav.announcements', section: 'content' },
  { path: '/content/ads', group: 'content', label: 'catalog.nav.ads', section: 'content' },
  { path: '/content/presale', group: 'content', label: 'catalog.nav.presale', section: 'content' },
  { path: '/content/source', group: 'content', label: 'catalog.nav.source', section: 'content' },
  { path: '/content/help', group: 'content', label: 'catalog.nav.help', section: 'content' },
  { path: '/content/lines', group: 'content', label: 'catalog.nav.lines', section: 'content' },
  { path: '/content/apps', group: 'content', label: 'catalog.nav.apps', section: 'content' },
  { path: '/people', group: 'people', label: 'nav.people.users', section: 'people', hint: 'dash.section.people' },
  { path: '/people/applications', group: 'people', label: 'nav.people.applications', section: 'people', roles: ['support'] },
  { path: '/people/feedback', group: 'people', label: 'nav.people.feedback', section: 'people', roles: ['support'] },
  { path: '/moderation/queue', group: 'moderation', label: 'mod.nav.queue', section: 'moderation', hint: 'mod.hint' },
  { path: '/moderation/comments', group: 'moderation', label: 'mod.nav.comments', section: 'moderation' },
  { path: '/moderation/reports', group: 'moderation', label: 'mod.nav.reports', section: 'moderation' },
  { path: '/moderation/words', group: 'moderation', label: 'mod.nav.words', section: 'moderation' },
  // issue 21: money (features/money)
  { path: '/money/orders', group: 'money', label: 'money.nav.orders', section: 'money', hint: 'money.hint' },
  { path: '/money/withdrawals', group: 'money', label: 'money.nav.withdrawals', section: 'money' },
  { path: '/money/wallet', group: 'money', label: 'money.nav.wallet', section: 'money' },
  // issue 21: finance (features/finance)
  { path: '/money/packages', group: 'money', label: 'finance.nav.packages', section: 'money' },
  { path: '/money/vip', group: 'money', label: 'finance.nav.vip', section: 'money' },
  { path: '/money/coupons', group: 'money', label: 'finance.nav.coupons', section: 'money' },
  { path: '/money/providers', group: 'money', label: 'finance.nav.providers', section: 'money' },
  { path: '/money/commission', group: 'money', label: 'finance.nav.commission', section: 'money' },
  { path: '/money/promoters', group: 'money', label: 'finance.nav.promoters', section: 'money' },
  { path: '/money/reconciliation', group: 'money', label: 'finance.nav.reconciliation', section: 'money' },
  // issue 21: growth (features/growth; the hot words are the content section's)
  { path: '/growth/checkin', group: 'growth', label: 'growth.nav.checkin', section: 'growth', hint: 'growth.hint' },
  { path: '/growth/tasks', group: 'growth', label: 'growth.nav.tasks', section: 'growth' },
  { path: '/growth/prizes', group: 'growth', label: 'growth.nav.prizes', section: 'growth' },
  { path: '/growth/codes', group: 'growth', label: 'growth.nav.codes', section: 'growth' },
  { path: '/growth/invite', group: 'growth', label: 'growth.nav.invite', section: 'growth' },
  { path: '/growth/search', group: 'growth', label: 'growth.nav.search', section: 'content' },
  // issue 22: backups (features/backups), owner only
  { path: '/backups', group: 'ops', label: 'backups.title', section: 'settings', roles: [], hint: 'backups.hint' },
  // issue 21: stats (features/stats; finance and owner)
  { path: '/stats', group: 'stats', label: 'stats.nav.overview', section: 'money', hint: 'stats.hint' },
  { path: '/stats/revenue', group: 'stats', label: 'stats.nav.revenue', section: 'money' },
  { path: '/stats/users', group: 'stats', label: 'stats.nav.users', section: 'money' },
  { path: '/stats/content', group: 'stats', label: 'stats.nav.content', section: 'money' },
  { path: '/audit', group: 'audit', label: 'nav.audit', section: 'audit', hint: 'dash.section.audit' },
  { path: '/operators', group: 'operators', label: 'nav.operators', section: 'operators', hint: 'dash.section.operators' },
  { path: '/security', group: 'security', label: 'nav.security', section: null, hint: 'dash.section.security' },
]

export function allowed(section: Section | null, sections: readonly string[]): boolean {
  return section === null || sections.includes(section)
}

// mayOpen: the page's section is the role's, and the role is one the page
// names (if it names any). role undefined: sections alone decide.
export function mayOpen(p: PageEntry, sections: readonly string[], role?: Role): boolean {
  return allowed(p.section, sections) && (!p.roles || role === undefined || role === 'owner' || p.roles.includes(role))
}

export function visiblePages(sections: readonly string[], role?: Role): PageEntry[] {
  return pages.filter((p) => mayOpen(p, sections, role))
}

// pageOf is the page a path under /admin shows (the longest entry that
// starts it), or undefined for a path no page has.
export function pageOf(path: string): PageEntry | undefined {
  const p = path.replace(/\/+$/, '') || '/'
  let best: PageEntry | undefined
  for (const e of pages) if ((p === e.path || (e.path !== '/' && p.startsWith(e.path + '/'))) && (!best || e.path.length > best.path.length)) best = e
  return best
}
