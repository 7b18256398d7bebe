// One video in a grid: 16:9 cover (lazy, fades in, falls back on error),
// the access badge (VIP, super VIP or price in coins), play count and
// duration over the cover, the title under it in at most two lines.
import { memo, type ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { formatCount, formatDuration } from '@/lib/time'
import { LazyImage } from './LazyImage'
import { PlayIcon } from './icons'
import type { Video } from '@/lib/video'
import styles from './VideoCard.module.css'

function Badge({ video }: { video: Video }) {
  if (video.vipLevel === 2) return <span className={`${styles.badge} ${styles.svip}`} data-testid="video-badge" data-level="2">{t('video.svip')}</span>
  if (video.vipLevel === 1) return <span className={`${styles.badge} ${styles.vip}`} data-testid="video-badge" data-level="1">{t('video.vip')}</span>
  if (video.coins > 0) return <span className={`${styles.badge} ${styles.coins}`} data-testid="video-badge" data-level="coins">{t('video.coins', { n: video.coins })}</span>
  return null
}

// titleNode replaces the plain title (search highlights its matches in it).
export const VideoCard = memo(function VideoCard({ video, eager, titleNode }: { video: Video; eager?: boolean; titleNode?: ReactNode }) {
  return (
    <Link to={`/detail/${video.id}`} className={styles.card} data-testid="video-card" data-video-id={video.id}>
      <div className={styles.coverBox}>
        <LazyImage src={video.cover} alt="" className={styles.cover} eager={eager} card />
        <Badge video={video} />
        <div className={styles.shade}>
          <span className={styles.plays}>
            <PlayIcon active />
            {formatCount(video.playCount)}
          </span>
          <span className={styles.duration}>{formatDuration(video.duration)}</span>
        </div>
      </div>
      <p className={styles.title}>{titleNode ?? video.title}</p>
    </Link>
  )
})

export function VideoCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <div className={`${styles.coverBox} prima-skeleton`} />
      <span className={`${styles.skLine} prima-skeleton`} />
      <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
    </div>
  )
}

export function VideoGrid({ children }: { children: ReactNode }) {
  return <div className={styles.grid}>{children}</div>
}
