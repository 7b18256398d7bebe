// mainView: the tab screens with the iOS tab bar at the bottom. Tapping the
// tab you are on scrolls it back to the top, as iOS does.
import { Suspense, type ComponentType } from 'react'
import { NavLink, Outlet, useLocation } from 'react-router'
import { t } from '@/i18n'
import { CommunityIcon, DarkIcon, HomeIcon, MineIcon, ShortVideoIcon } from '@/components/icons'
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

export default function TabLayout() {
  const { pathname } = useLocation()
  return (
    <div className={styles.layout}>
      {/* Its own boundary: the tab bar stays up while a tab's code loads. */}
      <Suspense fallback={<PageFallback />}>
        <Outlet />
      </Suspense>
      <nav className={`${styles.bar} prima-chrome`} aria-label={t('tab.label')}>
        {TABS.map(({ name, path, icon: Icon }) => (
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
                <Icon active={isActive} />
                <span className={styles.label}>{t(`tab.${name}`)}</span>
              </>
            )}
          </NavLink>
        ))}
      </nav>
    </div>
  )
}
