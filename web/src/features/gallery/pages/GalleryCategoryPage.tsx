// galleryCategory (/galleryCategory): the images module's categories as tabs
// and each category's galleries in a grid; the tab lives in the URL (?tab=)
// so back and reload keep it. The bar's right button opens the VIP galleries.
import { Link, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useGalleries, useImageModules } from '@/features/gallery/api/galleries'
import { CategoryTabs, CategoryTabsSkeleton } from '@/features/gallery/components/CategoryTabs'
import { GalleryList } from '@/features/gallery/components/GalleryList'
import { categoryTabs, pickTab } from '@/features/gallery/tabs'
import styles from './GalleryListPage.module.css'

export default function GalleryCategoryPage() {
  const [params, setParams] = useSearchParams()
  const modules = useImageModules()
  const tabs = modules.data ? categoryTabs(modules.data, t('gallery.all')) : []
  const tab = pickTab(tabs, params.get('tab'))
  const q = useGalleries({ moduleID: tab?.moduleID, subModuleID: tab?.subModuleID })

  let body
  // While the categories load, the list (not yet enabled) shows its skeleton.
  if (modules.isError) body = <StateView kind="error" error={modules.error} onRetry={() => void modules.refetch()} />
  else if (modules.data && !tab) body = <StateView kind="empty" title={t('gallery.noCategories')} />
  else body = <GalleryList q={q} />

  return (
    <div className={styles.page} data-testid="gallery-category-page">
      <NavBar
        title={t('route.galleryCategory.title')}
        right={
          <Link to="/galleryVip" className={styles.vipLink} data-testid="gallery-vip-link">
            <span className={styles.vipPill}>{t('gallery.vipLink')}</span>
          </Link>
        }
      />
      <main className={styles.body}>
        <div className={styles.tabs}>
          {modules.isPending ? (
            <CategoryTabsSkeleton />
          ) : (
            tabs.length > 1 && (
              <CategoryTabs
                tabs={tabs}
                selected={tab?.key ?? ''}
                onSelect={(next) => setParams({ tab: next.key }, { replace: true })}
              />
            )
          )}
        </div>
        <PullRefresh onRefresh={() => Promise.all([modules.refetch(), q.refetch()])}>
          <div className={styles.list} key={tab?.key}>
            {body}
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
