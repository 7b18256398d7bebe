// usertopic (/mine/usertopic): the topics I follow, newest follow first.
// Unfollowing keeps the row in place (its button turns back to 关注), so a
// slip of the thumb is one tap to undo; the list forgets it next visit.
import { Link } from 'react-router'
import { t } from '@/i18n'
import { formatCount } from '@/lib/time'
import { LazyImage } from '@/components/LazyImage'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useFollowedTopics } from '@/features/community/api/feed'
import { TopicFollowButton } from '@/features/community/components/TopicFollowButton'
import styles from './UserTopicPage.module.css'

export default function UserTopicPage() {
  const token = useUserStore((s) => s.token)
  const q = useFollowedTopics()
  const list = q.data?.pages.flatMap((p) => p.list) ?? []

  let body
  if (token == null)
    body = (
      <>
        <StateView kind="empty" title={t('comm.mine.signIn')} />
        <div className={styles.center}>
          <Link to="/mine/login" className={styles.fill}>
            {t('comm.signIn')}
          </Link>
        </div>
      </>
    )
  else if (q.isPending)
    body = (
      <div className={styles.group}>
        {[0, 1, 2].map((i) => (
          <div key={i} className={styles.row} aria-hidden="true">
            <span className={`${styles.cover} prima-skeleton`} />
            <span className={`${styles.skLine} prima-skeleton`} />
          </div>
        ))}
      </div>
    )
  else if (q.isError && !q.data) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else if (list.length === 0)
    body = (
      <div data-testid="usertopic-empty">
        <StateView kind="empty" title={t('comm.mine.empty')} message={t('comm.mine.emptyHint')} />
        <div className={styles.center}>
          <Link to="/community" className={styles.fill} data-testid="usertopic-go">
            {t('comm.mine.go')}
          </Link>
        </div>
      </div>
    )
  else
    body = (
      <>
        <div className={styles.group} data-testid="usertopic-list">
          {list.map((x) => (
            <Link key={x.id} to={`/community/topic/${x.id}`} className={styles.row} data-testid="usertopic-row" data-topic-id={x.id}>
              <span className={styles.cover}>
                {x.cover ? <LazyImage src={x.cover} alt="" className={styles.coverImg} /> : <span className={styles.hash}>#</span>}
              </span>
              <span className={styles.info}>
                <span className={styles.name}>#{x.name}</span>
                <span className={styles.stats}>
                  {t('comm.topicPosts', { n: formatCount(x.postCount) })} · {t('comm.topicFans', { n: formatCount(x.followCount) })}
                </span>
              </span>
              <TopicFollowButton topic={x} small />
            </Link>
          ))}
        </div>
        <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
      </>
    )

  return (
    <div className={styles.page} data-testid="usertopic-page">
      <NavBar title={t('route.usertopic.title')} back="/mine" />
      <main>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div className={styles.content}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
