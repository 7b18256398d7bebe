// The side menu: lib/pages.ts grouped, each group with its icon and label.
import type { ReactNode } from 'react'
import { AuditOutlined, CloudServerOutlined, DashboardOutlined, GiftOutlined, KeyOutlined, LineChartOutlined, PlaySquareOutlined, SafetyCertificateOutlined, TeamOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons'
import type { MessageKey } from '@/i18n'
import { visiblePages, type PageEntry } from '@/lib/pages'
import type { Role } from '@/lib/session'

export interface MenuGroup {
  key: string
  label: MessageKey
  icon: ReactNode
  pages: PageEntry[]
}

const groups: { key: string; label: MessageKey; icon: ReactNode }[] = [
  { key: 'dashboard', label: 'nav.dashboard', icon: <DashboardOutlined /> },
  { key: 'content', label: 'nav.content', icon: <PlaySquareOutlined /> },
  { key: 'people', label: 'nav.people', icon: <UserOutlined /> },
  { key: 'moderation', label: 'mod.nav', icon: <SafetyCertificateOutlined /> },
  { key: 'money', label: 'money.nav', icon: <WalletOutlined /> },
  { key: 'growth', label: 'growth.nav', icon: <GiftOutlined /> },
  { key: 'stats', label: 'stats.nav', icon: <LineChartOutlined /> },
  { key: 'ops', label: 'ops.nav', icon: <CloudServerOutlined /> },
  { key: 'audit', label: 'nav.audit', icon: <AuditOutlined /> },
  { key: 'operators', label: 'nav.operators', icon: <TeamOutlined /> },
  { key: 'security', label: 'nav.security', icon: <KeyOutlined /> },
]

export function visibleMenu(sections: readonly string[], role?: Role): MenuGroup[] {
  const mine = visiblePages(sections, role)
  return groups.map((g) => ({ ...g, pages: mine.filter((p) => p.group === g.key) })).filter((g) => g.pages.length > 0)
}
