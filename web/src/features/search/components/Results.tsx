// Search results drawn with each kind's own card: videos and shorts as
// video cards, galleries as gallery cards, posts by the community's card
// (through the app's slot), topics and people as rows. Every title shows
// its matches from the server's marks.
import { useContext, type ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import { GalleryCard, GalleryCardSkeleton, GalleryGrid } from '@/components/GalleryCard'
import { LazyImage } from '@/components/LazyImage'
import { SearchPostSlot } from '@/components/SearchPostSlot'
import { formatCount } from '@/lib/time'
import type { Mark, Result, SearchKind } from '@/features/search/types'
import { Highlight } from './Highlight'
import styles from './search.module.css'

function List({ children }: { children: ReactNode }) {
  return <div className={styles.rows}>{children}</div>
}

function RowSkeleton() {
  return (
    <div className={styles.row} aria-hidden="true">
      <span className={`${styles.rowPic} prima-skeleton`} />
      <span className={styles.rowBody}>
        <span className={`${styles.skLine} prima-skeleton`} />
        <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
      </span>
    </div>
  )
}

// gridOf: the container and skeleton each kind's list uses.
export function gridOf(kind: SearchKind): { Grid: (p: { children: ReactNode }) => ReactNode; Skeleton: () => ReactNode } {
  if (kind === 'video' || kind === 'short') return { Grid: VideoGrid, Skeleton: VideoCardSkeleton }
  if (kind === 'gallery') return { Grid: GalleryGrid, Skeleton: GalleryCardSkeleton }
  return { Grid: List, Skeleton: RowSkeleton }
}

function Portrait({ src }: { src: string }) {
  return (
    <span className={`${styles.rowPic} ${styles.round}`}>
      {src ? (
        <LazyImage src={src} alt="" className={styles.fill} />
      ) : (
        <svg viewBox="0 0 64 64" width="100%" height="100%" aria-hidden="true">
          <rect width="64" height="64" fill="currentColor" opacity=".14" />
          <circle cx="32" cy="25" r="11" fill="currentColor" opacity=".45" />
          <path d="M12 58c2-11 10-17 20-17s18 6 20 17z" fill="currentColor" opacity=".45" />
        </svg>
      )}
    </span>
  )
}

function PostFallback({ r }: { r: Result }) {
  return (
    <Link to={`/cdetail/${r.id}`} className={styles.row}>
      <span className={styles.rowBody}>
        <span className={styles.rowTitle}>
          <span className={styles.rowName}>
            <Highlight text={r.title} marks={r.marks} />
          </span>
        </span>
      </span>
    </Link>
  )
}

export function ResultCard({ r, eager }: { r: Result; eager?: boolean }) {
  const Post = useContext(SearchPostSlot)
  const marks: Mark[] = r.marks ?? []
  const title = <Highlight text={r.title} marks={marks} />
  switch (r.kind) {
    case 'video':
    case 'short':
      return r.video ? <VideoCard video={r.video} eager={eager} titleNode={title} /> : null
    case 'gallery':
      return r.gallery ? <GalleryCard gallery={r.gallery} eager={eager} titleNode={title} /> : null
    case 'post':
      if (!r.post) return null
      // The index's title of a post is its title, or its text's first line,
      // which is where its summary starts: the marks fit either.
      return Post ? <Post post={r.post} highlight={(text) => <Highlight text={text} marks={marks} />} /> : <PostFallback r={r} />
    case 'topic': {
      const tp = r.topic
      if (!tp) return null
      return (
        <Link to={`/community/topic/${tp.id}`} className={`${styles.row} prima-hit`} data-testid="search-topic" data-topic-id={tp.id}>
          <span className={styles.rowPic}>{tp.cover ? <LazyImage src={tp.cover} alt="" className={styles.fill} /> : <span className={styles.hash}>#</span>}</span>
          <span className={styles.rowBody}>
            <span className={styles.rowTitle}>
              <span className={styles.rowName}>#{title}</span>
            </span>
            <span className={styles.rowSub}>
              {t('search.topicPosts', { n: formatCount(tp.postCount) })} · {t('search.topicFollows', { n: formatCount(tp.followCount) })}
            </span>
          </span>
        </Link>
      )
    }
    case 'user': {
      const u = r.user
      if (!u) return null
      return (
        <Link to={`/usercenter/${u.uid}`} className={`${styles.row} prima-hit`} data-testid="search-user" data-uid={u.uid}>
          <Portrait src={u.portrait} />
          <span className={styles.rowBody}>
            <span className={styles.rowTitle}>
              <span className={styles.rowName}>{title}</span>
              {u.vipLevel > 0 && <span className={`${styles.vip} ${u.vipLevel === 2 ? styles.svip : ''}`}>{u.vipLevel === 2 ? 'SVIP' : 'VIP'}</span>}
            </span>
            <span className={styles.rowSub}>{u.bio || t('search.userBio')}</span>
          </span>
        </Link>
      )
    }
    default:
      return null
  }
}
