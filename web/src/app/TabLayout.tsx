// mainView: the tab screens with the iOS tab bar at the bottom. Tapping the
// tab you are on scrolls it back to the top, as iOS does.
import { Suspense, type ComponentType } from 'react'
import { useQuery } from '@tanstack/react-query'
import { NavLink, Outlet, useLocation } from 'react-router'
import { t } from '@/i18n'
import { CommunityIcon, DarkIcon, HomeIcon, MineIcon, ShortVideoIcon } from '@/components/icons'
import { navOpen, useConfigStore } from '@/stores/config'
import { unreadTotal, useUnread } from '@/lib/inbox'
import { useUserStore } from '@/stores/user'
import { modulesQueryOptions } from '@/features/catalog/api/get-modules'
import { PageFallback } from './PageFallback'
import styles from './TabLayout.module.css'

interface Tab {
  name: 'home' | 'community' | 'shortvideo' | 'dark' | 'mine'
  path: string
  icon: ComponentType<{ active?: boolean }>
}

export const TABS: Tab[] = [
  { name: 'home', path: '/home', icon: HomeIcon },
  { name: 'community', path: '/community', icon: CommunityIcon },
  { name: 'shortvideo', path: '/shortvideo', icon: ShortVideoIcon },
  { name: 'dark', path: '/dark', icon: DarkIcon },
  { name: 'mine', path: '/mine', icon: MineIcon },
]

// The dark tab follows the configuration: NAVOPEN can take it out of the
// bar, and its label is the operator's name for the dark module (the
// first module of type 2), else the built-in one.
function useDarkTab(): { open: boolean; label: string | null } {
  const open = useConfigStore((s) => navOpen(s.source))
  const dark = useQuery({ ...modulesQueryOptions(2), enabled: open })
  const name = dark.data?.[0]?.moduleName?.trim()
  return { open, label: name || null }
}

// The Mine tab's dot: an unread notice or message (lib/inbox.ts), live
// through realtime events, polled while the socket is down.
function useMineDot(): boolean {
  const token = useUserStore((s) => s.token)
  return unreadTotal(useUnread(token).data) > 0
}

export default function TabLayout() {
  const { pathname } = useLocation()
  const darkTab = useDarkTab()
  const mineDot = useMineDot()
  return (
    <div className={styles.layout}>
      {/* Its own boundary: the tab bar stays up while a tab's code loads. */}
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <nav className={`${styles.bar} prima-chrome`} aria-label={t('tab.label')}>
        {TABS.filter((tab) => tab.name !== 'dark' || darkTab.open).map(({ name, path, icon: Icon }) => (
          <NavLink
            key={name}
            to={path}
            className={({ isActive }) => `${styles.item} ${isActive ? styles.active : ''}`}
            data-testid={`tab-${name}`}
            onClick={() => {
              if (pathname === path) window.scrollTo({ top: 0, behavior: 'smooth' })
            }}
          >
            {({ isActive }) => (
              <>
                <span className={styles.iconWrap}>
                  <Icon active={isActive} />
                  {name === 'mine' && mineDot && <span className={styles.dot} data-testid="tab-mine-badge" role="img" aria-label={t('msg.unread')} />}
                </span>
                <span className={styles.label}>{(name === 'dark' && darkTab.label) || t(`tab.${name}`)}</span>
              </>
            )}
          </NavLink>
        ))}
      </nav>
    </div>
  )
}
