// One gallery picture: the BlurHash placeholder paints at once (decoded to a
// tiny data URL, stretched and smoothed by CSS), then the picture fades in
// over it, WebP where the server made it (a <picture> lets the browser pick).
// A failed load is retried up to 3 attempts in all, like LazyImage.
import { useEffect, useState } from 'react'
import { mediaURL } from '@/lib/lines'
import { useConfigStore } from '@/stores/config'
import { averageColor, blurhashURL } from '@/lib/blurhash'
import styles from './Picture.module.css'

const MAX_ATTEMPTS = 3
const RETRY_DELAY_MS = 800

interface Props {
  src?: string
  webp?: string
  placeholder?: string
  alt: string
  className?: string
  eager?: boolean
  // blurred: a locked picture (the placeholder only, blurred further).
  blurred?: boolean
  // contain: show the whole picture (the viewer) instead of filling the box.
  contain?: boolean
  onLoad?: () => void
}

export function Picture({ src, webp, placeholder, alt, className, eager, blurred, contain, onLoad }: Props) {
  const line = useConfigStore((s) => s.lines?.image)
  const origin = typeof location === 'undefined' ? undefined : location.origin
  const url = src ? mediaURL(src, line, origin) : undefined
  const webpURL = webp ? mediaURL(webp, line, origin) : undefined
  const [phase, setPhase] = useState<'loading' | 'loaded' | 'error'>('loading')
  const [attempt, setAttempt] = useState(1)
  const [shown, setShown] = useState(url)
  if (url !== shown) {
    setShown(url)
    setPhase('loading')
    setAttempt(1)
  }

  useEffect(() => {
    if (phase !== 'error' || attempt >= MAX_ATTEMPTS) return
    const id = setTimeout(() => {
      setAttempt((a) => a + 1)
      setPhase('loading')
    }, RETRY_DELAY_MS * attempt)
    return () => clearTimeout(id)
  }, [phase, attempt])

  const ph = placeholder ? blurhashURL(placeholder) : undefined
  const bg = placeholder ? averageColor(placeholder) : undefined
  return (
    <div
      className={`${styles.box} ${blurred ? styles.blurred : ''} ${className ?? ''}`}
      style={{ backgroundColor: bg, backgroundImage: ph ? `url(${ph})` : undefined }}
      data-phase={phase}
    >
      {url && !blurred && phase !== 'error' && (
        <picture key={attempt}>
          {webpURL && <source type="image/webp" srcSet={webpURL} />}
          <img
            className={`${styles.img} ${contain ? styles.contain : ''} ${phase === 'loaded' ? styles.shown : ''}`}
            src={url}
            alt={alt}
            loading={eager ? 'eager' : 'lazy'}
            decoding="async"
            draggable={false}
            onLoad={() => {
              setPhase('loaded')
              onLoad?.()
            }}
            onError={() => setPhase('error')}
          />
        </picture>
      )}
    </div>
  )
}
