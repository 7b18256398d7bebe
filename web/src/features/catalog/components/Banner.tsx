// Home's banner carousel: the ads the remote configuration places on home
// (position "home_banner"). It advances by itself every few seconds and
// holds still while a finger is on it (and while the page is hidden); a
// sideways drag steps it. A tap counts the click (failures ignored) and
// follows the ad's link by the spec's mapping (lib/links.ts).
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { openLink } from '@/lib/links'
import { axisOf } from '@/lib/gesture'
import { useConfigStore, type Ad } from '@/stores/config'
import { sendAdClick } from '@/features/catalog/api/ad-click'
import { bannerIndex, channelSwipe } from '@/features/catalog/tabs'
import styles from './Banner.module.css'

export const BANNER_POSITION = 'home_banner'
export const BANNER_INTERVAL_MS = 4000
const EMPTY: Ad[] = []

export function homeBanners(ads: Ad[] | undefined): Ad[] {
  return Array.isArray(ads) ? ads.filter((a) => a && a.position === BANNER_POSITION && typeof a.image === 'string' && a.image !== '') : EMPTY
}

export function Banner() {
  const ads = useConfigStore((s) => s.source?.ads)
  const list = homeBanners(ads)
  const n = list.length
  const navigate = useNavigate()
  const [index, setIndex] = useState(0)
  const [held, setHeld] = useState(false)
  const start = useRef<{ x: number; y: number; t: number; axis: 'x' | 'y' | null } | null>(null)
  const swiped = useRef(false)
  const cur = n > 0 ? index % n : 0

  useEffect(() => {
    if (n < 2 || held) return
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setIndex((i) => bannerIndex(i, n, 1))
    }, BANNER_INTERVAL_MS)
    return () => clearInterval(timer)
  }, [n, held])

  if (n === 0) return null

  const onPointerDown = (e: React.PointerEvent) => {
    start.current = { x: e.clientX, y: e.clientY, t: e.timeStamp, axis: null }
    swiped.current = false
    setHeld(true)
  }
  const onPointerMove = (e: React.PointerEvent) => {
    const s = start.current
    if (s && s.axis == null) s.axis = axisOf(e.clientX - s.x, e.clientY - s.y)
  }
  const release = (e: React.PointerEvent) => {
    const s = start.current
    start.current = null
    setHeld(false)
    if (!s || s.axis !== 'x') return
    const dx = e.clientX - s.x
    const step = channelSwipe(dx, dx / Math.max(1, e.timeStamp - s.t))
    if (step !== 0) {
      swiped.current = true
      setIndex((i) => bannerIndex(i, n, step))
    }
  }

  const open = (ad: Ad) => {
    if (swiped.current) {
      swiped.current = false
      return
    }
    sendAdClick(ad.id)
    openLink(ad, navigate)
  }

  return (
    <section
      className={styles.banner}
      aria-roledescription="carousel"
      aria-label={t('home.banner')}
      data-testid="home-banner"
      data-no-swipe
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={release}
      onPointerCancel={() => {
        start.current = null
        setHeld(false)
      }}
    >
      <div className={styles.track} style={{ transform: `translate3d(${-cur * 100}%, 0, 0)` }}>
        {list.map((ad, i) => (
          <button
            key={ad.id}
            type="button"
            className={styles.slide}
            onClick={() => open(ad)}
            aria-label={`${ad.title} (${t('home.bannerSlide', { n: i + 1, total: n })})`}
            tabIndex={i === cur ? 0 : -1}
            data-testid="home-banner-item"
            data-ad-id={ad.id}
          >
            <img src={ad.image} alt="" width={750} height={300} draggable={false} loading={i === 0 ? 'eager' : 'lazy'} decoding="async" />
          </button>
        ))}
      </div>
      {n > 1 && (
        <div className={styles.dots} aria-hidden="true">
          {list.map((ad, i) => (
            <span key={ad.id} className={`${styles.dot} ${i === cur ? styles.dotOn : ''}`} />
          ))}
        </div>
      )}
    </section>
  )
}
