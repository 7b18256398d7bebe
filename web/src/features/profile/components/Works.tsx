// The tabs under a user's header: videos and posts. Posts arrive with the
// community issue; until then the tab says so rather than pretending the
// user has none. On my own page the videos tab lists what I uploaded.
import { useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { LazyImage } from '@/components/LazyImage'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useMyVideos } from '@/features/profile/api/uploads'
import { Tabs } from './Tabs'
import styles from './ui.module.css'

type Tab = 'videos' | 'posts'

function MyVideos() {
  const token = useUserStore((s) => s.token)
  const q = useMyVideos(token)
  if (q.isPending) return <StateView kind="loading" compact />
  if (q.isError && !q.data) return <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data.pages.flatMap((p) => p.list)
  if (items.length === 0)
    return (
      <>
        <StateView kind="empty" compact title={t('people.myVideosEmpty')} />
        <div className={styles.linkBtn}>
          <Link to="/community/publishvideo" className={`${styles.btn} ${styles.btnFill} ${styles.small} prima-hit`}>
            {t('people.publish')}
          </Link>
        </div>
      </>
    )
  return (
    <>
      <div className={styles.grid} data-testid="people-videos">
        {items.map((v) => (
          <div key={v.id} className={styles.tile}>
            <LazyImage src={v.thumb ?? v.poster} alt="" className={styles.fill} />
            {v.state !== 'ready' && <span className={styles.tileState}>{t(v.state === 'failed' ? 'people.failed' : 'people.processing')}</span>}
          </div>
        ))}
      </div>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}

export function Works({ mine }: { mine: boolean }) {
  const [tab, setTab] = useState<Tab>('videos')
  return (
    <>
      <Tabs
        tabs={[
          { key: 'videos', label: t('people.tabVideos') },
          { key: 'posts', label: t('people.tabPosts') },
        ]}
        value={tab}
        onChange={setTab}
      />
      <div className={styles.panel} role="tabpanel">
        {tab === 'posts' ? (
          <StateView kind="empty" compact title={t('people.postsSoon')} />
        ) : mine ? (
          <MyVideos />
        ) : (
          <StateView kind="empty" compact title={t('people.videosOther')} />
        )}
      </div>
    </>
  )
}
