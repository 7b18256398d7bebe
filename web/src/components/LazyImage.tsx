// An image that loads when it nears the viewport (native loading="lazy"),
// fades in once decoded, retries a failed load up to 3 attempts in all
// (spec §4, §9) and then shows a fallback glyph instead of a broken image.
import { useEffect, useState } from 'react'
import { CARD_SIZES, coverSrcSet } from '@/lib/cover'
import { mediaURL } from '@/lib/lines'
import { useConfigStore } from '@/stores/config'
import styles from './LazyImage.module.css'

export const MAX_ATTEMPTS = 3
const RETRY_DELAY_MS = 800

type Phase = 'loading' | 'loaded' | 'error'

interface Props {
  src: string | null | undefined
  alt: string
  className?: string
  // eager skips lazy loading for images that are on screen at first paint.
  eager?: boolean
  // card: a video card's cover; a cover with a card-size copy loads the
  // smaller one where it is sharp enough (lib/cover.ts).
  card?: boolean
}

export function LazyImage({ src: path, alt, className, eager, card }: Props) {
  // Server-relative media paths load from the image line this device chose
  // (src/app/lines.ts); until then, and on a single-origin install, from here.
  const line = useConfigStore((s) => s.lines?.image)
  const origin = typeof location === 'undefined' ? undefined : location.origin
  const src = path ? mediaURL(path, line, origin) : path
  const srcSet = card ? coverSrcSet(path, (p) => mediaURL(p, line, origin)) : undefined
  const [phase, setPhase] = useState<Phase>(src ? 'loading' : 'error')
  const [attempt, setAttempt] = useState(1)
  const [shownSrc, setShownSrc] = useState(src)

  // A new src starts over. This happens during render, not in an effect: an
  // image already in the cache can fire its load event before effects run,
  // and an effect resetting to 'loading' then would hide it for good.
  if (src !== shownSrc) {
    setShownSrc(src)
    setPhase(src ? 'loading' : 'error')
    setAttempt(1)
  }

  useEffect(() => {
    if (phase !== 'error' || !src || attempt >= MAX_ATTEMPTS) return
    const id = setTimeout(() => {
      setAttempt((a) => a + 1)
      setPhase('loading')
    }, RETRY_DELAY_MS * attempt)
    return () => clearTimeout(id)
  }, [phase, attempt, src])

  const failed = phase === 'error' && (!src || attempt >= MAX_ATTEMPTS)
  return (
    <div className={`${styles.box} ${className ?? ''}`} data-phase={failed ? 'error' : phase}>
      {src && phase !== 'error' && (
        <img
          // A new element per attempt: the browser issues a fresh request.
          key={attempt}
          className={`${styles.img} ${phase === 'loaded' ? styles.shown : ''}`}
          src={src}
          srcSet={srcSet}
          sizes={srcSet ? CARD_SIZES : undefined}
          alt={alt}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          draggable={false}
          onLoad={() => setPhase('loaded')}
          onError={() => setPhase('error')}
        />
      )}
      {failed && (
        <svg className={styles.fallback} viewBox="0 0 24 24" width="28" height="28" aria-hidden="true">
          <path
            d="M4 5.5h16a1 1 0 0 1 1 1v11a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1v-11a1 1 0 0 1 1-1zm2.5 10.5 4-5 3 3.5 2-2.5 3 4"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            strokeLinejoin="round"
          />
        </svg>
      )}
    </div>
  )
}
