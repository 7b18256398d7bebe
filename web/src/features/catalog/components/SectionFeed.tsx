// A module's "all" view: its sections one after another, each a titled
// grid with "more" and "换一批", loading further sections as the user
// scrolls.
import { useState } from 'react'
import { t } from '@/i18n'
import { LoadMore } from '@/components/LoadMore'
import { RefreshIcon, ChevronRightIcon } from '@/components/icons'
import { StateView } from '@/components/StateView'
import { SECTION_VIDEOS, useModuleSections } from '@/features/catalog/api/get-module-sections'
import { useChangeSection } from '@/features/catalog/api/change-section'
import type { Section, Video } from '@/features/catalog/types'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import styles from './Feed.module.css'

function SectionBlock({ section, first, onMore }: { section: Section; first: boolean; onMore: (id: number) => void }) {
  // The batch from "换一批" replaces the section's own videos until the
  // list is reloaded.
  const [batch, setBatch] = useState<Video[] | null>(null)
  const change = useChangeSection(section.id, SECTION_VIDEOS)
  const videos = batch ?? section.videos

  return (
    <section className={styles.section} data-testid="home-section" data-section-id={section.id}>
      <header className={styles.sectionHead}>
        <h2 className={styles.sectionTitle}>{section.moduleName}</h2>
        <button type="button" className={`${styles.more} prima-hit`} onClick={() => onMore(section.id)} data-testid="section-more">
          {t('home.more')}
          <ChevronRightIcon size={14} />
        </button>
      </header>
      {videos.length === 0 ? (
        <StateView kind="empty" compact title={t('home.sectionEmpty')} />
      ) : (
        <VideoGrid>
          {videos.map((v, i) => (
            <VideoCard key={v.id} video={v} eager={first && i < 2} />
          ))}
        </VideoGrid>
      )}
      <div className={styles.sectionFoot}>
        <button
          type="button"
          className={`${styles.change} prima-hit`}
          disabled={change.isPending}
          onClick={() => change.mutate(videos, { onSuccess: (list) => list.length > 0 && setBatch(list) })}
          data-testid="section-change"
        >
          <RefreshIcon className={change.isPending ? styles.spin : undefined} />
          {t('home.change')}
        </button>
      </div>
    </section>
  )
}

export function SectionsSkeleton() {
  return (
    <div aria-busy="true" data-testid="home-skeleton">
      {[0, 1].map((s) => (
        <div key={s} className={styles.section}>
          <div className={styles.sectionHead}>
            <span className={`${styles.skTitle} prima-skeleton`} />
          </div>
          <VideoGrid>
            {[0, 1, 2, 3].map((i) => (
              <VideoCardSkeleton key={i} />
            ))}
          </VideoGrid>
        </div>
      ))}
    </div>
  )
}

export function SectionFeed({ moduleID, onMore }: { moduleID: number; onMore: (subModuleID: number) => void }) {
  const q = useModuleSections(moduleID)

  if (q.isPending) return <SectionsSkeleton />
  if (q.isError && !q.data) {
    return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  }
  const sections = q.data.pages.flatMap((p) => p.list)
  if (sections.length === 0) return <StateView kind="empty" title={t('home.empty')} />
  return (
    <>
      {sections.map((s, i) => (
        <SectionBlock key={s.id} section={s} first={i === 0} onMore={onMore} />
      ))}
      <LoadMore
        hasMore={q.hasNextPage}
        loading={q.isFetchingNextPage}
        error={q.isFetchNextPageError}
        onLoad={() => void q.fetchNextPage()}
      />
    </>
  )
}
