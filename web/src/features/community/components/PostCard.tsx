// One post in a list. Two faces: 'full' (one column: author row, title and
// summary, the picture grid or video poster, topic chip, counts) and 'tile'
// (a waterfall tile: the cover, two lines of text, author and likes). Text
// is always the plain summary the server made, never HTML. Tap → /cdetail.
import { memo, type MouseEvent, type ReactNode } from 'react'
import { Link, useNavigate } from 'react-router'
import { t } from '@/i18n'
import { Picture } from '@/components/Picture'
import { LazyImage } from '@/components/LazyImage'
import { PlayIcon } from '@/components/icons'
import { formatCount, formatDuration, relativeTime } from '@/lib/time'
import { coverRatio, gridOf } from '@/features/community/layout'
import type { Post, PostPicture } from '@/features/community/types'
import styles from './PostCard.module.css'

function Badges({ post }: { post: Post }) {
  return (
    <>
      {post.pinned && <span className={`${styles.badge} ${styles.pin}`}>{t('comm.pinned')}</span>}
      {post.featured && <span className={`${styles.badge} ${styles.feat}`}>{t('comm.featured')}</span>}
      {post.vipLevel === 2 && <span className={`${styles.badge} ${styles.svip}`}>{t('comm.svip')}</span>}
      {post.vipLevel === 1 && <span className={`${styles.badge} ${styles.vip}`}>{t('comm.vip')}</span>}
      {post.coins > 0 && <span className={`${styles.badge} ${styles.coins}`}>{t('comm.coins', { n: post.coins })}</span>}
      {post.kind === 'article' && <span className={`${styles.badge} ${styles.article}`}>{t('comm.article')}</span>}
    </>
  )
}

function StateBadge({ post }: { post: Post }) {
  if (post.state === 'pending') return <p className={`${styles.state} ${styles.statePending}`} data-testid="post-state" data-state="pending">{t('comm.pending')}</p>
  if (post.state === 'rejected')
    return (
      <p className={`${styles.state} ${styles.stateRejected}`} data-testid="post-state" data-state="rejected">
        {post.reason ? t('comm.rejectedReason', { reason: post.reason }) : t('comm.rejected')}
      </p>
    )
  return null
}

function Portrait({ src, size }: { src: string; size: number }) {
  return (
    <span className={styles.portrait} style={{ width: size, height: size }}>
      {src ? (
        <LazyImage src={src} alt="" className={styles.fill} />
      ) : (
        <svg viewBox="0 0 64 64" width={size} height={size} aria-hidden="true">
          <rect width="64" height="64" fill="currentColor" opacity=".14" />
          <circle cx="32" cy="25" r="11" fill="currentColor" opacity=".45" />
          <path d="M12 58c2-11 10-17 20-17s18 6 20 17z" fill="currentColor" opacity=".45" />
        </svg>
      )}
    </span>
  )
}

function VideoCover({ post, eager }: { post: Post; eager?: boolean }) {
  const v = post.video
  if (!v) return null
  return (
    <div className={styles.videoBox} data-testid="post-video">
      {v.poster ? <LazyImage src={v.poster} alt="" className={styles.fill} eager={eager} /> : <div className={styles.fill} />}
      <span className={styles.play}>
        <PlayIcon active size={22} />
      </span>
      {v.state === 'ready' ? (
        <span className={styles.duration}>{formatDuration(Math.round(v.durationMs / 1000))}</span>
      ) : (
        <span className={`${styles.duration} ${styles.processing}`} data-testid="post-processing">
          {t(v.state === 'failed' ? 'comm.failed' : 'comm.processing')}
        </span>
      )}
    </div>
  )
}

function Grid({ post, eager }: { post: Post; eager?: boolean }) {
  const pics = post.pictures
  if (pics.length === 0) return null
  const g = gridOf(pics.length, post.pictureCount)
  const one = g.cols === 1
  const first = pics[0]
  const ratio = one && first.width > 0 && first.height > 0 ? Math.min(4 / 3, Math.max(3 / 4, first.height / first.width)) : 1
  return (
    <div className={`${styles.grid} ${styles[`cols${g.cols}`]}`} data-testid="post-pictures" data-count={g.cells}>
      {pics.slice(0, g.cells).map((p: PostPicture, i) => (
        <div key={p.id} className={styles.cell} style={one ? { aspectRatio: `${1 / ratio}` } : undefined}>
          <Picture src={one ? p.url : p.thumb} webp={one ? p.urlWebp : p.thumbWebp} placeholder={p.placeholder} alt="" className={styles.fill} eager={eager && i < 3} />
          {i === g.cells - 1 && g.extra > 0 && (
            <span className={styles.extra} data-testid="post-more-pictures">
              {t('comm.more', { n: g.extra })}
            </span>
          )}
        </div>
      ))}
    </div>
  )
}

interface Props {
  post: Post
  layout?: 'full' | 'tile'
  eager?: boolean
  // hideTopic: on the topic's own page the chip says nothing new.
  hideTopic?: boolean
  // titleNode / summaryNode replace the plain title and summary of the full
  // face (search highlights its matches in them; still React text, no HTML).
  titleNode?: ReactNode
  summaryNode?: ReactNode
}

export const PostCard = memo(function PostCard({ post, layout = 'full', eager, hideTopic, titleNode, summaryNode }: Props) {
  const navigate = useNavigate()
  const to = `/cdetail/${post.id}`
  const open = (e: MouseEvent) => {
    // Links inside the card (author, topic) handle themselves.
    if ((e.target as Element).closest('a')) return
    navigate(to)
  }
  const text = post.title || post.summary
  const when = relativeTime((post.publishedAt || post.createdAt) * 1000)

  if (layout === 'tile') {
    const r = coverRatio(post)
    const pic = post.pictures[0]
    return (
      <article className={styles.tile} onClick={open} data-testid="post-card" data-post-id={post.id} data-layout="tile">
        {r != null && (
          <div className={styles.tileCover} style={{ aspectRatio: `${1 / r}` }}>
            {pic ? (
              <Picture src={pic.thumb} webp={pic.thumbWebp} placeholder={pic.placeholder} alt="" className={styles.fill} eager={eager} />
            ) : (
              <VideoCover post={post} eager={eager} />
            )}
            <div className={styles.tileBadges}>
              <Badges post={post} />
            </div>
            {post.pictureCount > 1 && <span className={styles.tileCount}>{post.pictureCount}</span>}
          </div>
        )}
        <div className={styles.tileBody}>
          {r == null && (
            <div className={styles.badgeRow}>
              <Badges post={post} />
            </div>
          )}
          <Link to={to} className={`${styles.tileText} ${r == null && !post.title ? styles.tileTextLong : ''}`} data-testid="post-link">
            {text}
          </Link>
          {r == null && post.title && post.summary && <p className={styles.tileSummary}>{post.summary}</p>}
          <StateBadge post={post} />
          <div className={styles.tileFoot}>
            <Link to={`/usercenter/${post.author.uid}`} className={styles.tileAuthor}>
              <Portrait src={post.author.portrait} size={18} />
              <span className={styles.name}>{post.author.name}</span>
            </Link>
            <span className={`${styles.count} ${post.liked ? styles.liked : ''}`}>
              <HeartIcon filled={post.liked} />
              {formatCount(post.likeCount)}
            </span>
          </div>
        </div>
      </article>
    )
  }

  return (
    <article className={styles.card} onClick={open} data-testid="post-card" data-post-id={post.id} data-layout="full">
      <header className={styles.head}>
        <Link to={`/usercenter/${post.author.uid}`} className={styles.author} data-testid="post-author">
          <Portrait src={post.author.portrait} size={36} />
          <span className={styles.who}>
            <span className={styles.nameRow}>
              <span className={styles.name}>{post.author.name}</span>
              {post.author.vipLevel > 0 && (
                <span className={`${styles.vipMark} ${post.author.vipLevel === 2 ? styles.svipMark : ''}`}>{post.author.vipLevel === 2 ? 'SVIP' : 'VIP'}</span>
              )}
            </span>
            <time className={styles.when}>{when}</time>
          </span>
        </Link>
        <div className={styles.badgeRow}>
          <Badges post={post} />
        </div>
      </header>
      <StateBadge post={post} />
      {post.title && (
        <Link to={to} className={styles.title} data-testid="post-link">
          {titleNode ?? post.title}
        </Link>
      )}
      {post.summary && (
        <p className={styles.summary} data-testid={post.title ? undefined : 'post-link'}>
          {summaryNode ?? post.summary}
        </p>
      )}
      {post.kind === 'video' ? <VideoCover post={post} eager={eager} /> : <Grid post={post} eager={eager} />}
      {(post.coins > 0 || post.vipLevel > 0) && post.pictureCount > post.pictures.length && <p className={styles.locked}>{t('comm.locked')}</p>}
      <footer className={styles.foot}>
        {post.topic && !hideTopic ? (
          <Link to={`/community/topic/${post.topic.id}`} className={styles.topic} data-testid="post-topic">
            #{post.topic.name}
          </Link>
        ) : (
          <span />
        )}
        <span className={styles.counts}>
          <span className={`${styles.count} ${post.liked ? styles.liked : ''}`} aria-label={t('comm.likes', { n: post.likeCount })}>
            <HeartIcon filled={post.liked} />
            {formatCount(post.likeCount)}
          </span>
          <span className={styles.count} aria-label={t('comm.comments', { n: post.commentCount })}>
            <CommentIcon />
            {formatCount(post.commentCount)}
          </span>
        </span>
      </footer>
    </article>
  )
})

const HeartIcon = ({ filled }: { filled?: boolean }) => (
  <svg width="15" height="15" viewBox="0 0 24 24" fill={filled ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <path d="M12 20.5s-7.5-4.6-9.2-9.3C1.6 7.9 3.8 4.5 7.3 4.5c2 0 3.5 1.1 4.7 2.8 1.2-1.7 2.7-2.8 4.7-2.8 3.5 0 5.7 3.4 4.5 6.7-1.7 4.7-9.2 9.3-9.2 9.3z" strokeLinejoin="round" />
  </svg>
)

const CommentIcon = () => (
  <svg width="15" height="15" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <path d="M4 5h16v11H9l-5 4z" strokeLinejoin="round" />
  </svg>
)

export function PostCardSkeleton({ layout = 'full' }: { layout?: 'full' | 'tile' }) {
  if (layout === 'tile')
    return (
      <div className={styles.tile} aria-hidden="true">
        <div className={`${styles.tileCover} prima-skeleton`} style={{ aspectRatio: '3 / 4' }} />
        <div className={styles.tileBody}>
          <span className={`${styles.skLine} prima-skeleton`} />
          <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
        </div>
      </div>
    )
  return (
    <div className={styles.card} aria-hidden="true" data-testid="post-skeleton">
      <div className={styles.head}>
        <span className={`${styles.portrait} prima-skeleton`} style={{ width: 36, height: 36 }} />
        <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
      </div>
      <span className={`${styles.skLine} prima-skeleton`} />
      <span className={`${styles.skLine} prima-skeleton`} />
      <div className={`${styles.skPic} prima-skeleton`} />
    </div>
  )
}
