// The grid of galleries both list pages show: skeletons while the first
// page loads, then the cards, more as the user scrolls, and the empty and
// error (or offline) states.
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import { t } from '@/i18n'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import type { Gallery, Paged } from '@/features/gallery/types'
import { GalleryCard, GalleryCardSkeleton, GalleryGrid } from '@/components/GalleryCard'

export function GalleryList({ q, empty }: { q: UseInfiniteQueryResult<InfiniteData<Paged<Gallery>>>; empty?: string }) {
  if (q.isPending) {
    return (
      <GalleryGrid>
        {Array.from({ length: 6 }, (_, i) => (
          <GalleryCardSkeleton key={i} />
        ))}
      </GalleryGrid>
    )
  }
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const galleries = q.data.pages.flatMap((p) => p.list)
  if (galleries.length === 0) return <StateView kind="empty" title={empty ?? t('gallery.empty')} />
  return (
    <>
      <GalleryGrid>
        {galleries.map((g, i) => (
          <GalleryCard key={g.id} gallery={g} eager={i < 4} />
        ))}
      </GalleryGrid>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
