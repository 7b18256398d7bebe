// topic (/community/topic/:id): a topic's header (cover, name, description,
// post and follower counts, follow) over its posts, hot or newest, pinned
// posts first. A hidden or missing topic shows the not-found state.
import { useState } from 'react'
import { Link, useParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { formatCount } from '@/lib/time'
import { LazyImage } from '@/components/LazyImage'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useConfigStore } from '@/stores/config'
import { usePosts, useTopic } from '@/features/community/api/feed'
import { feedKeys } from '@/features/community/keys'
import { communityColumns } from '@/features/community/layout'
import { PostList } from '@/features/community/components/PostList'
import { TopicFollowButton } from '@/features/community/components/TopicFollowButton'
import styles from './TopicPage.module.css'

export default function TopicPage() {
  const { id: raw } = useParams()
  const id = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : 0
  const qc = useQueryClient()
  const [sort, setSort] = useState<'hot' | 'new'>('hot')
  const columns = useConfigStore((s) => communityColumns(s.source?.COMMUNITYLAYOUT))
  const topic = useTopic(id)
  const missing = id === 0 || (topic.error instanceof ApiError && topic.error.status === 404)
  const posts = usePosts({ topicID: id, sort }, !missing && topic.isSuccess)

  let body
  if (missing)
    body = (
      <div data-testid="topic-missing">
        <StateView kind="empty" title={t('comm.topic.notFound')} />
        <div className={styles.center}>
          <Link to="/community" className={styles.fill}>
            {t('comm.topic.back')}
          </Link>
        </div>
      </div>
    )
  else if (topic.isPending) body = <div className={`${styles.headSk} prima-skeleton`} />
  else if (topic.isError && !topic.data) body = <StateView kind="error" error={topic.error} onRetry={() => void topic.refetch()} />
  else {
    const x = topic.data
    body = (
      <>
        <section className={styles.head} data-testid="topic-header">
          <div className={styles.cover}>
            {x.cover ? <LazyImage src={x.cover} alt="" className={styles.coverImg} eager /> : <span className={styles.hash}>#</span>}
          </div>
          <div className={styles.info}>
            <h2 className={styles.name} data-testid="topic-name">
              #{x.name}
            </h2>
            <p className={styles.stats}>
              <span data-testid="topic-post-count">{t('comm.topicPosts', { n: formatCount(x.postCount) })}</span>
              <span aria-hidden="true"> · </span>
              <span data-testid="topic-follow-count">{t('comm.topicFans', { n: formatCount(x.followCount) })}</span>
            </p>
          </div>
          <TopicFollowButton topic={x} />
        </section>
        {x.description && <p className={styles.desc}>{x.description}</p>}
        <div className={`${styles.tabs} prima-chrome`} role="tablist">
          {(['hot', 'new'] as const).map((s) => (
            <button
              key={s}
              type="button"
              role="tab"
              aria-selected={sort === s}
              className={`${styles.tab} ${sort === s ? styles.tabOn : ''}`}
              onClick={() => setSort(s)}
              data-testid="topic-sort"
              data-sort={s}
            >
              {t(s === 'hot' ? 'comm.topic.hot' : 'comm.topic.new')}
            </button>
          ))}
        </div>
        <PostList q={posts} columns={columns} empty={t('comm.topic.empty')} hideTopic />
      </>
    )
  }

  const refresh = () => Promise.all([topic.refetch(), qc.resetQueries({ queryKey: feedKeys.postsAll() })])
  return (
    <div className={styles.page} data-testid="topic-page">
      <NavBar title={topic.data ? `#${topic.data.name}` : t('route.topic.title')} back="/community" />
      <main>
        <PullRefresh onRefresh={refresh}>
          <div className={styles.content}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
