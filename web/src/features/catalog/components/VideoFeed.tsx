// A sub-module's own view: every video of it in a two-column grid, sorted
// by the chip the user picked, loading more as the user scrolls.
import { t, type MessageKey } from '@/i18n'
import { useAppStore } from '@/stores/app'
import { PagedGrid } from '@/components/PagedGrid'
import { useModuleVideos, type SortType } from '@/features/catalog/api/get-module-videos'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import styles from './Feed.module.css'

const SORTS: { sort: SortType; key: MessageKey }[] = [
  { sort: 0, key: 'home.sort.newest' },
  { sort: 1, key: 'home.sort.hottest' },
  { sort: 2, key: 'home.sort.liked' },
]

export function VideoFeed({ subModuleID }: { subModuleID: number }) {
  // Remembered per sub-module, so coming back from a video keeps the order.
  const sortKey = `homeSort.${subModuleID}`
  const stored = useAppStore((s) => s.tabs[sortKey])
  const setTab = useAppStore((s) => s.setTab)
  const sortType: SortType = stored === 1 || stored === 2 ? stored : 0
  const setSortType = (v: SortType) => setTab(sortKey, v)
  const q = useModuleVideos({ subModuleID, sortType })

  const body = (
    <PagedGrid
      q={q}
      Grid={VideoGrid}
      Skeleton={VideoCardSkeleton}
      empty={t('home.noVideos')}
      item={(v, i) => <VideoCard key={v.id} video={v} eager={i < 2} />}
    />
  )

  return (
    <div data-testid="home-video-feed">
      <div className={styles.sorts} role="radiogroup" aria-label={t('home.sort.label')}>
        {SORTS.map((s) => (
          <button
            key={s.sort}
            type="button"
            role="radio"
            aria-checked={sortType === s.sort}
            className={`${styles.sort} ${sortType === s.sort ? styles.sortOn : ''}`}
            onClick={() => setSortType(s.sort)}
            data-testid="sort-chip"
            data-sort={s.sort}
          >
            {t(s.key)}
          </button>
        ))}
      </div>
      {body}
    </div>
  )
}
