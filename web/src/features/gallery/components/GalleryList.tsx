// The grid of galleries both list pages show: skeletons while the first
// page loads, then the cards, more as the user scrolls, and the empty and
// error (or offline) states.
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query'
import { t } from '@/i18n'
import { PagedGrid } from '@/components/PagedGrid'
import type { Gallery } from '@/features/gallery/types'
import { GalleryCard, GalleryCardSkeleton, GalleryGrid } from '@/components/GalleryCard'
import type { Page } from '@/lib/page'

export function GalleryList({ q, empty }: { q: UseInfiniteQueryResult<InfiniteData<Page<Gallery>>>; empty?: string }) {
  return (
    <PagedGrid
      q={q}
      Grid={GalleryGrid}
      Skeleton={GalleryCardSkeleton}
      empty={empty ?? t('gallery.empty')}
      item={(g, i) => <GalleryCard key={g.id} gallery={g} eager={i < 4} />}
    />
  )
}
