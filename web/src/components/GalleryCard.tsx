// One gallery in a grid (the gallery pages and the favourites under Mine): a 3:4 cover (placeholder first, then the thumb),
// the access badge (VIP, super VIP or price in coins, as on video cards),
// the picture count, and the title under it.
import { memo, type ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import type { Gallery } from '@/lib/gallery'
import { Picture } from './Picture'
import styles from './GalleryCard.module.css'

// AccessBadge sits on the cover's corner, or in a line of text when inline.
export function AccessBadge({ gallery, inline }: { gallery: Pick<Gallery, 'vipLevel' | 'coins'>; inline?: boolean }) {
  const base = `${styles.badge} ${inline ? styles.inline : ''}`
  if (gallery.vipLevel === 2) return <span className={`${base} ${styles.svip}`} data-testid="gallery-badge">{t('video.svip')}</span>
  if (gallery.vipLevel === 1) return <span className={`${base} ${styles.vip}`} data-testid="gallery-badge">{t('video.vip')}</span>
  if (gallery.coins > 0) return <span className={`${base} ${styles.coins}`} data-testid="gallery-badge">{t('video.coins', { n: gallery.coins })}</span>
  return null
}

// titleNode replaces the plain title (search highlights its matches in it).
export const GalleryCard = memo(function GalleryCard({ gallery, eager, titleNode }: { gallery: Gallery; eager?: boolean; titleNode?: ReactNode }) {
  return (
    <Link to={`/gallery/${gallery.id}`} className={styles.card} data-testid="gallery-card" data-gallery-id={gallery.id} data-vip={gallery.vipLevel} data-coins={gallery.coins}>
      <div className={styles.coverBox}>
        <Picture
          src={gallery.cover}
          webp={gallery.coverWebp}
          placeholder={gallery.coverPlaceholder}
          alt=""
          className={styles.cover}
          eager={eager}
        />
        <AccessBadge gallery={gallery} />
        <span className={styles.count}>{t('gallery.count', { n: gallery.imageCount })}</span>
      </div>
      <p className={styles.title}>{titleNode ?? gallery.title}</p>
    </Link>
  )
})

export function GalleryCardSkeleton() {
  return (
    <div className={styles.card} aria-hidden="true">
      <div className={`${styles.coverBox} prima-skeleton`} />
      <span className={`${styles.skLine} prima-skeleton`} />
    </div>
  )
}

export function GalleryGrid({ children }: { children: ReactNode }) {
  return (
    <div className={styles.grid} data-testid="gallery-grid">
      {children}
    </div>
  )
}
