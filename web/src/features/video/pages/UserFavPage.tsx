// userfav (/mine/userfav): the user's favourites, videos or galleries
// (mine/collection?type=), one tab each; the tab sits in ?type= so back and
// reload keep it.
import { useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { MineGalleriesPage } from './MineGalleries'
import { MineVideosPage } from './MineVideosPage'
import styles from './MineVideosPage.module.css'

type FavTab = 'video' | 'gallery'

export default function UserFavPage() {
  const [params, setParams] = useSearchParams()
  const tab: FavTab = params.get('type') === 'gallery' ? 'gallery' : 'video'
  const tabs = (
    <div className={styles.tabs} role="tablist" aria-label={t('route.userfav.title')}>
      {(['video', 'gallery'] as const).map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          aria-selected={tab === k}
          className={`${styles.tab} ${tab === k ? styles.tabOn : ''}`}
          onClick={() => setParams(k === 'video' ? {} : { type: k }, { replace: true })}
          data-testid="fav-tab"
          data-tab={k}
        >
          {k === 'video' ? t('mineVideos.tabVideos') : t('mineVideos.tabGalleries')}
        </button>
      ))}
    </div>
  )
  return tab === 'gallery' ? <MineGalleriesPage header={tabs} /> : <MineVideosPage kind="fav" header={tabs} />
}
