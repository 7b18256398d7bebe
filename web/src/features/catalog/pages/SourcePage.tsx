// source (/source?id=N | ?moduleID=N [&title=&sortType=&playTimeType=&newsType=]):
// every video of one source (a sub-module, or a whole module of home or
// dark) in a two-column grid with the filters moduleVideo takes: order,
// duration band and "last 7 days". Discover's "more" links land here.
import { useSearchParams } from 'react-router'
import { t, type MessageKey } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { PagedGrid } from '@/components/PagedGrid'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import { useModules } from '@/features/catalog/api/get-modules'
import { useSourceVideos, type SortType } from '@/features/catalog/api/get-module-videos'
import { parseSource, withFilter, type PlayTimeType, type SourceQuery } from '@/features/catalog/source'
import type { Module } from '@/features/catalog/types'
import feed from '@/features/catalog/components/Feed.module.css'
import styles from './SourcePage.module.css'

const SORTS: { v: SortType; key: MessageKey }[] = [
  { v: 0, key: 'home.sort.newest' },
  { v: 1, key: 'home.sort.hottest' },
  { v: 2, key: 'home.sort.liked' },
]

const DURATIONS: { v: PlayTimeType; key: MessageKey }[] = [
  { v: 0, key: 'source.duration.any' },
  { v: 1, key: 'source.duration.short' },
  { v: 2, key: 'source.duration.mid' },
  { v: 3, key: 'source.duration.long' },
]

// sourceName finds the sub-module's or module's own name among the loaded
// modules of home and dark.
function sourceName(src: SourceQuery, modules: Module[]): string | undefined {
  if (src.subModuleID != null) return modules.flatMap((m) => m.subModules).find((s) => s.id === src.subModuleID)?.moduleName
  return modules.find((m) => m.moduleID === src.moduleID)?.moduleName
}

function Chips<V extends number>({
  label,
  items,
  value,
  onPick,
  testid,
}: {
  label: string
  items: { v: V; key: MessageKey }[]
  value: V
  onPick: (v: V) => void
  testid: string
}) {
  return (
    <div className={feed.sorts} role="radiogroup" aria-label={label}>
      {items.map((s) => (
        <button
          key={s.v}
          type="button"
          role="radio"
          aria-checked={value === s.v}
          className={`${feed.sort} ${value === s.v ? feed.sortOn : ''}`}
          onClick={() => onPick(s.v)}
          data-testid={testid}
          data-value={s.v}
        >
          {t(s.key)}
        </button>
      ))}
    </div>
  )
}

function SourceList({ src, onFilter }: { src: SourceQuery; onFilter: (k: 'sortType' | 'playTimeType' | 'newsType', v: number) => void }) {
  const q = useSourceVideos({
    subModuleID: src.subModuleID,
    moduleID: src.moduleID,
    sortType: src.sortType,
    playTimeType: src.playTimeType,
    newsType: src.newsType,
  })
  return (
    <>
      <div className={styles.filters} aria-label={t('source.filters')} role="group">
        <Chips label={t('home.sort.label')} items={SORTS} value={src.sortType} onPick={(v) => onFilter('sortType', v)} testid="source-sort" />
        <div className={styles.row}>
          <Chips
            label={t('source.duration')}
            items={DURATIONS}
            value={src.playTimeType}
            onPick={(v) => onFilter('playTimeType', v)}
            testid="source-duration"
          />
          <button
            type="button"
            role="switch"
            aria-checked={src.newsType === 1}
            title={t('source.recentLabel')}
            className={`${styles.recent} ${src.newsType === 1 ? styles.recentOn : ''}`}
            onClick={() => onFilter('newsType', src.newsType === 1 ? 0 : 1)}
            data-testid="source-recent"
          >
            {t('source.recent')}
          </button>
        </div>
      </div>
      <PullRefresh onRefresh={() => q.refetch()}>
        <div className={styles.list} data-testid="source-list">
          <PagedGrid
            q={q}
            Grid={VideoGrid}
            Skeleton={VideoCardSkeleton}
            empty={t('home.noVideos')}
            item={(v, i) => <VideoCard key={v.id} video={v} eager={i < 2} />}
          />
        </div>
      </PullRefresh>
    </>
  )
}

export default function SourcePage() {
  const [q, setQ] = useSearchParams()
  const home = useModules(0)
  const dark = useModules(2)
  const src = parseSource(q)
  const named = src ? sourceName(src, [...(home.data ?? []), ...(dark.data ?? [])]) : undefined
  const title = src?.title ?? named ?? t('route.source.title')
  // A filter replaces the history entry: back leaves the page rather than
  // stepping through every chip the user tried.
  const onFilter = (k: 'sortType' | 'playTimeType' | 'newsType', v: number) => setQ(withFilter(q, k, v), { replace: true })
  return (
    <div className={styles.page} data-testid="source-page">
      <NavBar title={title} />
      <main className={styles.body}>
        {src ? <SourceList src={src} onFilter={onFilter} /> : <StateView kind="empty" title={t('source.noSource')} />}
      </main>
    </div>
  )
}
