// home (/home): the module tabs of module type 0, the announcement bar and
// the selected module's sections or a sub-module's grid. Pull down to
// reload; scroll down for more.
import { useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { Logo } from '@/components/Logo'
import { StateView } from '@/components/StateView'
import { useAppStore } from '@/stores/app'
import { useAppName, useConfigStore } from '@/stores/config'
import { useModules } from '@/features/catalog/api/get-modules'
import { AnnounceBar } from '@/features/catalog/components/AnnounceBar'
import { Banner } from '@/features/catalog/components/Banner'
import { axisOf } from '@/lib/gesture'
import { ModuleTabs, ModuleTabsSkeleton } from '@/features/catalog/components/ModuleTabs'
import { PullRefresh } from '@/components/PullRefresh'
import { SectionFeed, SectionsSkeleton } from '@/features/catalog/components/SectionFeed'
import { VideoFeed } from '@/features/catalog/components/VideoFeed'
import { channelSwipe, defaultTabIndex, homeTabs, neighbourTab, pickTab, type HomeTab } from '@/features/catalog/tabs'
import styles from './HomePage.module.css'
import { catalogKeys } from '@/features/catalog/keys'

export default function HomePage() {
  const queryClient = useQueryClient()
  const appName = useAppName()
  const modules = useModules(0)
  const selected = useAppStore((s) => s.tabs.home)
  const setTab = useAppStore((s) => s.setTab)
  const defaultIndex = useConfigStore((s) => defaultTabIndex(s.source?.MODULESELECTINDEX))
  const tabs = homeTabs(modules.data ?? [])
  const current = pickTab(tabs, selected, defaultIndex)

  const refresh = () =>
    Promise.all([
      queryClient.refetchQueries({ queryKey: catalogKeys.modulesAll(), type: 'active' }),
      queryClient.refetchQueries({ queryKey: catalogKeys.announcements(), type: 'active' }),
      // Lists start again from their first page.
      queryClient.resetQueries({ queryKey: catalogKeys.sectionsAll() }),
      queryClient.resetQueries({ queryKey: catalogKeys.videosAll() }),
    ])

  const select = (tab: HomeTab) => {
    setTab('home', tab.id)
    window.scrollTo({ top: 0 })
  }
  // "More" on a section opens that sub-module's tab.
  const openSub = (id: number) => {
    const tab = tabs.find((x) => x.kind === 'sub' && x.id === id)
    if (tab) select(tab)
  }

  // A sideways swipe on the content changes channel. The gesture's first
  // movement decides its axis (lib/gesture.ts): a vertical or diagonal
  // start stays a scroll and is never taken over. Listeners are passive,
  // so scrolling is never delayed.
  const content = useRef<HTMLDivElement>(null)
  const step = useRef<(dir: 1 | -1) => void>(() => undefined)
  step.current = (dir) => {
    const next = current && neighbourTab(tabs, current.key, dir)
    if (next) select(next)
  }
  useEffect(() => {
    const el = content.current
    if (!el) return
    let g: { x: number; y: number; t: number; axis: 'x' | 'y' | null } | null = null
    const down = (e: TouchEvent) => {
      const target = e.target as Element | null
      g = e.touches.length === 1 && !target?.closest('[data-no-swipe]') ? { x: e.touches[0].clientX, y: e.touches[0].clientY, t: e.timeStamp, axis: null } : null
    }
    const move = (e: TouchEvent) => {
      if (g && g.axis == null) g.axis = axisOf(e.touches[0].clientX - g.x, e.touches[0].clientY - g.y)
    }
    const up = (e: TouchEvent) => {
      const s = g
      g = null
      if (!s || s.axis !== 'x') return
      const dx = e.changedTouches[0].clientX - s.x
      const dir = channelSwipe(dx, dx / Math.max(1, e.timeStamp - s.t))
      if (dir !== 0) step.current(dir)
    }
    el.addEventListener('touchstart', down, { passive: true })
    el.addEventListener('touchmove', move, { passive: true })
    el.addEventListener('touchend', up, { passive: true })
    const cancel = () => (g = null)
    el.addEventListener('touchcancel', cancel, { passive: true })
    return () => {
      el.removeEventListener('touchstart', down)
      el.removeEventListener('touchmove', move)
      el.removeEventListener('touchend', up)
      el.removeEventListener('touchcancel', cancel)
    }
  }, [])

  let body
  if (modules.isPending) body = <SectionsSkeleton />
  else if (modules.isError && !modules.data)
    body = (
      <StateView
        kind="error"
        error={modules.error}
        onRetry={() => void modules.refetch()}
      />
    )
  else if (!current) body = <StateView kind="empty" title={t('home.noModules')} />
  else if (current.kind === 'module') body = <SectionFeed key={current.key} moduleID={current.id} onMore={openSub} />
  else body = <VideoFeed key={current.key} subModuleID={current.id} />

  return (
    <div className={styles.page} data-testid="home-page">
      <header className={`${styles.header} prima-chrome`}>
        <div className={styles.top}>
          <h1 className={styles.brand}>
            <Logo size={24} className={styles.logo} />
            {appName}
          </h1>
          <Link to="/home/search" className={`${styles.search} prima-hit`} data-testid="home-search">
            <svg width="16" height="16" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" aria-hidden="true">
              <circle cx="11" cy="11" r="7" />
              <path d="m20 20-3.5-3.5" />
            </svg>
            <span className={styles.searchText}>{t('home.searchPlaceholder')}</span>
          </Link>
        </div>
        {modules.isPending ? (
          <ModuleTabsSkeleton />
        ) : (
          current && <ModuleTabs tabs={tabs} selected={current.key} onSelect={select} />
        )}
      </header>
      <main>
        <PullRefresh onRefresh={refresh}>
          <div className={styles.content} ref={content} data-testid="home-content">
            <AnnounceBar />
            <Banner />
            {body}
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
