// community (/community): the community tab. A segmented control picks a
// feed (关注 · 推荐 · 最新); the chips under it pick one of the community
// module's sub-modules instead (newest or hottest, pinned posts first). The
// hot-topics strip leads to topic pages; the list follows the operator's
// COMMUNITYLAYOUT (one column or a two-column waterfall). Pull to refresh,
// scroll for more, and the floating button writes a post.
import { useQueryClient } from '@tanstack/react-query'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useAppStore } from '@/stores/app'
import { useConfigStore } from '@/stores/config'
import { useUserStore } from '@/stores/user'
import { useCommunityModules, usePosts, useTopics } from '@/features/community/api/feed'
import { feedKeys, type FeedSource } from '@/features/community/keys'
import { choiceFeed, communityColumns, feedChoice, type FeedName } from '@/features/community/layout'
import { PostList } from '@/features/community/components/PostList'
import styles from './CommunityPage.module.css'

const FEEDS: { feed: FeedName; label: 'comm.feed.follow' | 'comm.feed.recommend' | 'comm.feed.new' }[] = [
  { feed: 'follow', label: 'comm.feed.follow' },
  { feed: 'recommend', label: 'comm.feed.recommend' },
  { feed: 'new', label: 'comm.feed.new' },
]

function HotTopics() {
  const q = useTopics('hot')
  const list = q.data?.list ?? []
  if (q.isPending)
    return (
      <div className={styles.topics} aria-hidden="true">
        {[72, 96, 64, 88].map((w, i) => (
          <span key={i} className={`${styles.topicSk} prima-skeleton`} style={{ width: w }} />
        ))}
      </div>
    )
  if (list.length === 0) return null
  return (
    <section className={styles.topicsBox} aria-label={t('comm.hotTopics')}>
      <div className={styles.topicsHead}>
        <h2 className={styles.topicsTitle}>{t('comm.hotTopics')}</h2>
        <Link to="/mine/usertopic" className={styles.topicsMore} data-testid="community-my-topics">
          {t('comm.moreTopics')}
        </Link>
      </div>
      <div className={styles.topics} data-no-swipe data-testid="community-topics">
        {list.map((x, i) => (
          <Link key={x.id} to={`/community/topic/${x.id}`} className={styles.topic} data-testid="community-topic" data-topic-id={x.id}>
            <span className={styles.rank} data-rank={i + 1}>
              {i + 1}
            </span>
            <span className={styles.topicName}>#{x.name}</span>
            <span className={styles.topicCount}>{t('comm.topicPosts', { n: x.postCount })}</span>
          </Link>
        ))}
      </div>
    </section>
  )
}

function FollowGate({ signedIn }: { signedIn: boolean }) {
  return (
    <div data-testid="community-follow-gate">
      <StateView kind="empty" title={signedIn ? t('comm.followGuest') : t('comm.followSignIn')} />
      <div className={styles.gateAction}>
        <Link to={signedIn ? '/mine/register' : '/mine/login'} className={`${styles.fill} prima-hit`}>
          {signedIn ? t('comm.register') : t('comm.signIn')}
        </Link>
      </div>
    </div>
  )
}

export default function CommunityPage() {
  const qc = useQueryClient()
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? true)
  const choice = useAppStore((s) => s.tabs.community)
  const sortPick = useAppStore((s) => s.tabs.communitySort)
  const setTab = useAppStore((s) => s.setTab)
  const columns = useConfigStore((s) => communityColumns(s.source?.COMMUNITYLAYOUT))
  const modules = useCommunityModules()
  const subs = modules.data?.[0]?.subModules ?? []

  let feed = choiceFeed(choice)
  // A chosen sub-module the operator has since removed falls back to 推荐.
  const moduleID = feed == null && subs.some((s) => s.id === choice) ? (choice as number) : 0
  if (feed == null && moduleID === 0 && !modules.isPending) feed = 'recommend'
  const sort = sortPick === 1 ? 'hot' : 'new'
  const src: FeedSource = moduleID > 0 ? { moduleID, sort } : { feed: feed ?? 'recommend' }
  const followBlocked = feed === 'follow' && (token == null || isGuest)
  const q = usePosts(src, !followBlocked && (feed != null || moduleID > 0))

  const pick = (value: number) => {
    setTab('community', value)
    window.scrollTo({ top: 0 })
  }
  const refresh = () =>
    Promise.all([
      qc.refetchQueries({ queryKey: feedKeys.modules(), type: 'active' }),
      qc.refetchQueries({ queryKey: feedKeys.topicsAll(), type: 'active' }),
      qc.resetQueries({ queryKey: feedKeys.postsAll() }),
    ])

  let body
  if (followBlocked) body = <FollowGate signedIn={token != null} />
  else
    body = (
      <PostList
        q={q}
        columns={columns}
        empty={feed === 'follow' ? t('comm.followEmpty') : t('comm.empty')}
        emptyHint={feed === 'follow' ? t('comm.followEmptyHint') : t('comm.emptyHint')}
      />
    )

  return (
    <div className={styles.page} data-testid="community-page" data-columns={columns}>
      <header className={`${styles.header} prima-chrome`}>
        <div className={styles.top}>
          <div className={styles.segments} role="tablist" aria-label={t('comm.feeds')}>
            {FEEDS.map((f) => (
              <button
                key={f.feed}
                type="button"
                role="tab"
                aria-selected={moduleID === 0 && feed === f.feed}
                className={`${styles.segment} ${moduleID === 0 && feed === f.feed ? styles.segmentOn : ''}`}
                onClick={() => pick(feedChoice(f.feed))}
                data-testid="community-feed"
                data-feed={f.feed}
              >
                {t(f.label)}
              </button>
            ))}
          </div>
        </div>
        {subs.length > 0 && (
          <div className={styles.chips} role="tablist" aria-label={t('comm.modules')} data-no-swipe>
            {subs.map((s) => (
              <button
                key={s.id}
                type="button"
                role="tab"
                aria-selected={moduleID === s.id}
                className={`${styles.chip} ${moduleID === s.id ? styles.chipOn : ''}`}
                onClick={() => pick(moduleID === s.id ? feedChoice('recommend') : s.id)}
                data-testid="community-module"
                data-module-id={s.id}
              >
                {s.moduleName}
              </button>
            ))}
          </div>
        )}
      </header>
      <main>
        <PullRefresh onRefresh={refresh}>
          <div className={styles.content} data-testid="community-content">
            {moduleID === 0 && feed !== 'follow' && <HotTopics />}
            {moduleID > 0 && (
              <div className={styles.sorts} role="radiogroup" aria-label={t('comm.sort.label')}>
                {(['new', 'hot'] as const).map((s) => (
                  <button
                    key={s}
                    type="button"
                    role="radio"
                    aria-checked={sort === s}
                    className={`${styles.sort} ${sort === s ? styles.sortOn : ''}`}
                    onClick={() => setTab('communitySort', s === 'hot' ? 1 : 0)}
                    data-testid="community-sort"
                    data-sort={s}
                  >
                    {t(s === 'hot' ? 'comm.sort.hot' : 'comm.sort.new')}
                  </button>
                ))}
              </div>
            )}
            {body}
          </div>
        </PullRefresh>
      </main>
      <Link to="/community/publish/rule" className={styles.fab} aria-label={t('comm.publish')} data-testid="community-publish">
        <svg width="26" height="26" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" aria-hidden="true">
          <path d="M12 5v14M5 12h14" />
        </svg>
      </Link>
    </div>
  )
}
