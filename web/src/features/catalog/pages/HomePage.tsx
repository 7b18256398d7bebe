// home (/home): the module tabs of module type 0, the announcement bar and
// the selected module's sections or a sub-module's grid. Pull down to
// reload; scroll down for more.
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { Logo } from '@/components/Logo'
import { StateView } from '@/components/StateView'
import { useAppStore } from '@/stores/app'
import { useAppName, useConfigStore } from '@/stores/config'
import { useModules } from '@/features/catalog/api/get-modules'
import { AnnounceBar } from '@/features/catalog/components/AnnounceBar'
import { ModuleTabs, ModuleTabsSkeleton } from '@/features/catalog/components/ModuleTabs'
import { preloadPullRefresh, PullRefresh } from '@/components/PullRefresh'
import { SectionFeed, SectionsSkeleton } from '@/features/catalog/components/SectionFeed'
import { VideoFeed } from '@/features/catalog/components/VideoFeed'
import { defaultTabIndex, homeTabs, pickTab, type HomeTab } from '@/features/catalog/tabs'
import styles from './HomePage.module.css'
import { catalogKeys } from '@/features/catalog/keys'

preloadPullRefresh()

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
          <div className={styles.content}>
            <AnnounceBar />
            {body}
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
