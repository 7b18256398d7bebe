// galleryVip (/galleryVip): every gallery that needs a membership (VIP or
// super VIP), newest first, in the same grid as the categories.
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { useVipGalleries } from '@/features/gallery/api/galleries'
import { GalleryList } from '@/features/gallery/components/GalleryList'
import styles from './GalleryListPage.module.css'

export default function GalleryVipPage() {
  const q = useVipGalleries()
  return (
    <div className={styles.page} data-testid="gallery-vip-page">
      <NavBar title={t('route.galleryVip.title')} back="/galleryCategory" />
      <main className={styles.body}>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div className={styles.list}>
            <GalleryList q={q} empty={t('gallery.emptyVip')} />
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
