// gallery (/gallery/:id): a gallery's pictures down the page (the display
// size, each painting its BlurHash placeholder first) and the full-screen
// viewer on a tap. Without access the pictures the server locked follow the
// free ones blurred, behind the paywall. The bar holds the favourite toggle.
import { useEffect, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { Paywall } from '@/components/Paywall'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { isNotFound, useCollectGallery, useGallery } from '@/features/gallery/api/galleries'
import { galleryKeys } from '@/features/gallery/keys'
import { AccessBadge } from '@/components/GalleryCard'
import { Picture } from '@/components/Picture'
import { Viewer } from '@/components/Viewer'
import type { GalleryDetail } from '@/features/gallery/types'
import styles from './GalleryPage.module.css'

// At most this many locked pictures are drawn behind the paywall: enough to
// show there is more, not a screenful of blur.
const LOCKED_SHOWN = 4

// parseID: the route's :id as a positive safe integer, else NaN.
export function parseID(raw: string | undefined): number {
  if (!raw || !/^\d{1,16}$/.test(raw)) return NaN
  const n = Number(raw)
  return Number.isSafeInteger(n) && n > 0 ? n : NaN
}

export default function GalleryPage() {
  const { id: raw } = useParams()
  const id = parseID(raw)
  const token = useUserStore((s) => s.token)
  const q = useGallery(id, token)

  useEffect(() => {
    window.scrollTo(0, 0)
  }, [id])

  let body
  if (!Number.isFinite(id) || (q.isError && isNotFound(q.error))) body = <NotFound />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else body = <Gallery key={id} gallery={q.data} />

  return (
    <div className={styles.page} data-testid="gallery-page">
      <NavBar
        title={q.data?.title ?? t('route.gallery.title')}
        back="/galleryCategory"
        right={q.data ? <CollectButton gallery={q.data} token={token} /> : undefined}
      />
      <main>{body}</main>
    </div>
  )
}

function CollectButton({ gallery, token }: { gallery: GalleryDetail; token: string | null }) {
  const navigate = useNavigate()
  const collect = useCollectGallery(gallery.id, token)
  return (
    <button
      type="button"
      className={`${styles.collect} ${gallery.isCollect ? styles.collected : ''}`}
      aria-pressed={gallery.isCollect}
      aria-label={t('gallery.collect')}
      onClick={() => (token ? collect.mutate(!gallery.isCollect) : navigate('/mine/login'))}
      data-testid="gallery-collect"
    >
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
        <path
          d="M12 3.5l2.6 5.3 5.9.9-4.3 4.1 1 5.8L12 16.9l-5.2 2.7 1-5.8-4.3-4.1 5.9-.9z"
          fill={gallery.isCollect ? 'currentColor' : 'none'}
          stroke="currentColor"
          strokeWidth="1.7"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  )
}

function Gallery({ gallery }: { gallery: GalleryDetail }) {
  const [open, setOpen] = useState<number | null>(null)
  const free = gallery.images.filter((im) => !im.locked && im.display)
  const locked = gallery.images.filter((im) => im.locked)
  const qc = useQueryClient()
  const token = useUserStore((s) => s.token)
  // After a purchase the detail is fetched afresh: it now signs every picture.
  const refetch = () => void qc.invalidateQueries({ queryKey: galleryKeys.detail(gallery.id, token) })
  return (
    <>
      <header className={styles.head}>
        <h1 className={styles.title} data-testid="gallery-title">
          {gallery.title}
        </h1>
        <p className={styles.meta}>
          <AccessBadge gallery={gallery} inline />
          <span data-testid="gallery-count">{t('gallery.count', { n: gallery.imageCount })}</span>
        </p>
      </header>
      <ol className={styles.pictures} data-testid="gallery-pictures">
        {free.map((im, i) => (
          <li key={im.position}>
            <button
              type="button"
              className={styles.open}
              style={{ aspectRatio: `${im.width || 3} / ${im.height || 4}` }}
              onClick={() => setOpen(i)}
              aria-label={t('gallery.open', { n: i + 1 })}
              data-testid="gallery-picture"
            >
              <Picture
                src={im.display}
                webp={im.displayWebp}
                placeholder={im.placeholder}
                alt={t('gallery.pictureAlt', { n: i + 1, title: gallery.title })}
                className={styles.fill}
                eager={i < 2}
              />
            </button>
          </li>
        ))}
      </ol>
      {gallery.paywall && (
        <section className={styles.locked} data-testid="gallery-locked" data-locked={locked.length}>
          <div className={styles.lockedPics} aria-hidden="true">
            {locked.slice(0, LOCKED_SHOWN).map((im) => (
              <div key={im.position} className={styles.lockedPic} style={{ aspectRatio: `${im.width || 3} / ${im.height || 4}` }}>
                <Picture placeholder={im.placeholder} alt="" blurred className={styles.fill} />
              </div>
            ))}
          </div>
          <div className={styles.paywall}>
            {locked.length > 0 && <p className={styles.more}>{t('gallery.lockedMore', { n: locked.length })}</p>}
            <Paywall paywall={gallery.paywall} buy={{ target: { kind: 'gallery', id: gallery.id }, onBought: refetch }} />
          </div>
        </section>
      )}
      {open != null && free.length > 0 && (
        <Viewer images={free} start={open} title={gallery.title} onClose={() => setOpen(null)} />
      )}
    </>
  )
}

function NotFound() {
  return (
    <div className={styles.notFound} data-testid="gallery-notfound">
      <StateView kind="empty" title={t('gallery.notFound')} message={t('gallery.notFoundHint')} />
      <Link to="/galleryCategory" className={styles.homeBtn} data-testid="gallery-back-list">
        {t('gallery.toList')}
      </Link>
    </div>
  )
}
