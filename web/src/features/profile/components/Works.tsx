// The tabs under a user's header: videos and posts. The posts tab is the
// community's list of the user's posts (the app supplies it through
// UserPostsSlot). On my own page the videos tab lists what I uploaded; on
// someone else's, their published videos.
import { Suspense, useContext, useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { LazyImage } from '@/components/LazyImage'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import { UserPostsSlot } from '@/components/UserPostsSlot'
import { useUserStore } from '@/stores/user'
import { VideoCard, VideoGrid } from '@/components/VideoCard'
import { useMyVideos, useUserVideos } from '@/features/profile/api/uploads'
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

function TheirVideos({ uid }: { uid: number }) {
  const q = useUserVideos(uid)
  if (q.isPending) return <StateView kind="loading" compact />
  if (q.isError && !q.data) return <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data.pages.flatMap((p) => p.list)
  if (items.length === 0) return <StateView kind="empty" compact title={t('people.videosOther')} />
  return (
    <div data-testid="people-videos">
      <VideoGrid>
        {items.map((v) => (
          <VideoCard key={v.id} video={v} />
        ))}
      </VideoGrid>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </div>
  )
}

function Posts({ uid, mine }: { uid: number; mine: boolean }) {
  const List = useContext(UserPostsSlot)
  if (List == null || uid <= 0) return <StateView kind="empty" compact title={t('people.postsNone')} />
  return (
    <Suspense fallback={<StateView kind="loading" compact />}>
      <List uid={uid} mine={mine} />
    </Suspense>
  )
}

export function Works({ mine, uid }: { mine: boolean; uid: number }) {
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
          <Posts uid={uid} mine={mine} />
        ) : mine ? (
          <MyVideos />
        ) : (
          <TheirVideos uid={uid} />
        )}
      </div>
    </>
  )
}
