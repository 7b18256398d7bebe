// A paged list of posts in the operator's layout: one column of full cards,
// or a two-column waterfall of tiles (each card goes to the shorter column,
// so a new page never moves what is shown). Skeletons first, then the
// error (or offline) state with retry, the empty state, the cards and more
// as the user scrolls.
import { useMemo, type ReactNode } from 'react'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import type { PagedQuery } from '@/components/PagedGrid'
import { splitWaterfall, tileHeight, uniquePosts, type Columns } from '@/features/community/layout'
import type { Post } from '@/features/community/types'
import { PostCard, PostCardSkeleton } from './PostCard'
import styles from './PostList.module.css'

interface Props {
  q: PagedQuery<Post>
  columns: Columns
  empty: ReactNode
  emptyHint?: ReactNode
  emptyAction?: ReactNode
  hideTopic?: boolean
}

export function PostList({ q, columns, empty, emptyHint, emptyAction, hideTopic }: Props) {
  const posts = useMemo(() => uniquePosts(q.data?.pages), [q.data])
  const layout = columns === 2 ? 'tile' : 'full'
  if (q.isPending) {
    return columns === 2 ? (
      <div className={styles.waterfall} data-testid="post-list" data-columns={2}>
        {[0, 1].map((c) => (
          <div key={c} className={styles.column}>
            <PostCardSkeleton layout="tile" />
            <PostCardSkeleton layout="tile" />
          </div>
        ))}
      </div>
    ) : (
      <div className={styles.single} data-testid="post-list" data-columns={1}>
        <PostCardSkeleton />
        <PostCardSkeleton />
        <PostCardSkeleton />
      </div>
    )
  }
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  if (posts.length === 0)
    return (
      <div data-testid="post-list-empty">
        <StateView kind="empty" title={empty} message={emptyHint} />
        {emptyAction && <div className={styles.emptyAction}>{emptyAction}</div>}
      </div>
    )
  let body
  if (columns === 2) {
    const [left, right] = splitWaterfall(posts, tileHeight)
    body = (
      <div className={`${styles.waterfall} community-two-column`} data-testid="post-list" data-columns={2}>
        {[left, right].map((col, c) => (
          <div key={c} className={styles.column}>
            {col.map((p, i) => (
              <PostCard key={p.id} post={p} layout={layout} eager={i < 2} hideTopic={hideTopic} />
            ))}
          </div>
        ))}
      </div>
    )
  } else {
    body = (
      <div className={`${styles.single} community-one-column`} data-testid="post-list" data-columns={1}>
        {posts.map((p, i) => (
          <PostCard key={p.id} post={p} layout={layout} eager={i < 2} hideTopic={hideTopic} />
        ))}
      </div>
    )
  }
  return (
    <>
      {body}
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
