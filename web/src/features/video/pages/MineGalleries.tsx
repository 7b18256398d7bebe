// The favourites page's galleries tab: the user's favourite galleries in the
// shared gallery grid, more as the user scrolls, pull to refresh, and the
// empty and error states, in the same shell as the video lists.
import type { ReactNode } from 'react'
import { t } from '@/i18n'
import { GalleryCard, GalleryCardSkeleton, GalleryGrid } from '@/components/GalleryCard'
import { PagedGrid } from '@/components/PagedGrid'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useMineGalleries } from '@/features/video/api/mine-galleries'
import styles from './MineVideosPage.module.css'

export function MineGalleriesPage({ header }: { header?: ReactNode }) {
  const token = useUserStore((s) => s.token)
  const q = useMineGalleries(token)

  const body =
    token == null ? (
      <StateView kind="empty" title={t('mineVideos.signIn')} />
    ) : (
      <PagedGrid
        q={q}
        Grid={GalleryGrid}
        Skeleton={GalleryCardSkeleton}
        skeletons={4}
        empty={t('mineVideos.emptyFavGallery')}
        item={(g, i) => <GalleryCard key={g.id} gallery={g} eager={i < 2} />}
      />
    )

  return (
    <div className={styles.page} data-testid="mine-galleries">
      <NavBar title={t('route.userfav.title')} back="/mine" />
      <main className={styles.body}>
        {header}
        <PullRefresh onRefresh={() => q.refetch()}>
          <div className={styles.list}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
