// dark (/dark): the dark module (moduleType 2) laid out as home is: its
// modules and sub-modules as tabs, sections or a sub-module's grid. While
// it is shown the app takes the dark theme whatever the user chose (the
// spec's global dark-web flag); leaving restores their choice.
import { useLayoutEffect } from 'react'
import { t } from '@/i18n'
import { StateView } from '@/components/StateView'
import { useAppStore } from '@/stores/app'
import { useModules } from '@/features/catalog/api/get-modules'
import { ModuleTabs, ModuleTabsSkeleton } from '@/features/catalog/components/ModuleTabs'
import { SectionFeed, SectionsSkeleton } from '@/features/catalog/components/SectionFeed'
import { VideoFeed } from '@/features/catalog/components/VideoFeed'
import { homeTabs, pickTab, type HomeTab } from '@/features/catalog/tabs'
import styles from './HomePage.module.css'

export default function DarkPage() {
  const modules = useModules(2)
  const selected = useAppStore((s) => s.tabs.dark)
  const setTab = useAppStore((s) => s.setTab)
  const setDarkWeb = useAppStore((s) => s.setDarkWeb)
  const tabs = homeTabs(modules.data ?? [])
  const current = pickTab(tabs, selected, 1)

  useLayoutEffect(() => {
    setDarkWeb(true)
    return () => setDarkWeb(false)
  }, [setDarkWeb])

  const select = (tab: HomeTab) => {
    setTab('dark', tab.id)
    window.scrollTo({ top: 0 })
  }
  const openSub = (id: number) => {
    const tab = tabs.find((x) => x.kind === 'sub' && x.id === id)
    if (tab) select(tab)
  }

  let body
  if (modules.isPending) body = <SectionsSkeleton />
  else if (modules.isError && !modules.data) body = <StateView kind="error" error={modules.error} onRetry={() => void modules.refetch()} />
  else if (!current) body = <StateView kind="empty" title={t('dark.noModules')} />
  else if (current.kind === 'module') body = <SectionFeed key={current.key} moduleID={current.id} onMore={openSub} />
  else body = <VideoFeed key={current.key} subModuleID={current.id} />

  const title = modules.data?.[0]?.moduleName || t('dark.title')
  return (
    <div className={styles.page} data-testid="dark-page">
      <header className={`${styles.header} prima-chrome`}>
        <div className={styles.top}>
          <h1 className={styles.brand}>{title}</h1>
        </div>
        {modules.isPending ? <ModuleTabsSkeleton /> : current && <ModuleTabs tabs={tabs} selected={current.key} onSelect={select} />}
      </header>
      <main>
        <div className={styles.content}>{body}</div>
      </main>
    </div>
  )
}
