// The video player of the detail page: a 16:9 <video playsinline> with the
// browser's own controls, plus a bar for the playback rate, a fill-the-page
// mode and native fullscreen. HLS plays natively where the browser can
// (iPhone Safari); elsewhere hls.js (its light build: no subtitles, alternate
// audio or DRM, which Prima's streams do not use) is downloaded on first use
// only, so it never weighs on the first page load. The rules (engine, rates, resume)
// live in lib/player with their tests.
import { useEffect, useRef, useState, type ReactNode } from 'react'
import type HlsType from 'hls.js/light'
import { t } from '@/i18n'
import { chooseEngine, formatRate, HLS_MIME, PLAYBACK_RATES, resumeAt, saveResume, type PlaybackRate } from '@/lib/player'
import { useVideoURL } from '@/stores/config'
import { LazyImage } from './LazyImage'
import { Spinner } from './Spinner'
import styles from './VideoPlayer.module.css'

interface Props {
  // src is the HLS master playlist; null when there is nothing to play yet.
  src: string | null
  poster?: string
  // resumeID: the video whose position is saved and restored; undefined for
  // a preview, whose position means nothing for the full video.
  resumeID?: number
  // onStart runs when playback first starts (counting a play).
  onStart?: () => void
  onEnded?: () => void
  // overlay covers the picture (the paywall) and stops playback.
  overlay?: ReactNode
  // emptyText says why there is no source (src null and no overlay).
  emptyText?: ReactNode
  // onRetry runs when the viewer retries a failed stream, before the player
  // attaches its source again (signed URLs expire: the page may fetch a
  // fresh one, which then arrives as a new src).
  onRetry?: () => void
  // autoPlay starts the stream as soon as it can (the viewer just bought
  // it); muted when the browser refuses sound without a fresh gesture.
  autoPlay?: boolean
}

// idle: attached, nothing asked yet (iPhone Safari loads nothing before the
// first tap, whatever preload says, so idle must not look busy); loading:
// the viewer pressed play, or playback is waiting for data.
type Status = 'idle' | 'loading' | 'ready' | 'error'

// How often the position is written while playing, in seconds of video.
const SAVE_EVERY_S = 5

interface WebkitVideo extends HTMLVideoElement {
  webkitEnterFullscreen?: () => void
}

export function VideoPlayer({ src: path, poster, resumeID, onStart, onEnded, overlay, emptyText, onRetry, autoPlay }: Props) {
  const src = useVideoURL(path)
  const box = useRef<HTMLDivElement>(null)
  const video = useRef<HTMLVideoElement>(null)
  const [status, setStatus] = useState<Status>('idle')
  const [attempt, setAttempt] = useState(0)
  const [rate, setRate] = useState<PlaybackRate>(1)
  const [menu, setMenu] = useState(false)
  const [fill, setFill] = useState(false)
  const started = useRef(false)
  const rateRef = useRef(rate)
  rateRef.current = rate
  const cb = useRef({ onStart, onEnded })
  cb.current = { onStart, onEnded }
  const autoPlayRef = useRef(autoPlay)
  autoPlayRef.current = autoPlay

  // Attach the stream; a new src or a retry starts over.
  useEffect(() => {
    const v = video.current
    if (!v || !src) return
    setStatus('idle')
    let hls: HlsType | null = null
    let cancelled = false
    const fail = () => {
      if (!cancelled) setStatus('error')
    }
    const start = () => {
      if (cancelled || !autoPlayRef.current) return
      v.play().catch(() => {
        v.muted = true
        v.play().catch(() => undefined)
      })
    }
    v.addEventListener('loadedmetadata', start, { once: true })
    if (chooseEngine(v.canPlayType(HLS_MIME)) === 'native') {
      v.src = src
    } else {
      import('hls.js/light')
        .then(({ default: Hls }) => {
          if (cancelled) return
          if (!Hls.isSupported()) {
            v.src = src // last chance: let the browser try the playlist itself
            return
          }
          hls = new Hls({ capLevelToPlayerSize: true })
          hls.on(Hls.Events.ERROR, (_e, data) => {
            if (data.fatal) fail()
          })
          hls.loadSource(src)
          hls.attachMedia(v)
        })
        .catch(fail) // the chunk did not download (offline, new deploy)
    }
    return () => {
      cancelled = true
      v.removeEventListener('loadedmetadata', start)
      hls?.destroy()
      v.removeAttribute('src')
      v.load()
    }
  }, [src, attempt])

  // Position: restored once the duration is known, saved while playing,
  // on pause and when the player goes away.
  useEffect(() => {
    const v = video.current
    if (!v || !src) return
    let lastSaved = 0
    const save = () => {
      if (resumeID != null && v.currentTime > 0) saveResume(resumeID, v.currentTime, v.duration)
    }
    const onMeta = () => {
      setStatus('ready')
      if (resumeID != null) {
        const at = resumeAt(resumeID, v.duration)
        if (at > 0) v.currentTime = at
      }
      v.playbackRate = rateRef.current
    }
    const onTime = () => {
      if (Math.abs(v.currentTime - lastSaved) >= SAVE_EVERY_S) {
        lastSaved = v.currentTime
        save()
      }
    }
    const onPlaying = () => {
      setStatus('ready')
      if (!started.current) {
        started.current = true
        cb.current.onStart?.()
      }
    }
    const onEnd = () => {
      save()
      cb.current.onEnded?.()
    }
    const onWaiting = () => setStatus((st) => (st === 'error' ? st : 'loading'))
    const onPlay = () => {
      if (v.readyState < HTMLMediaElement.HAVE_FUTURE_DATA) onWaiting()
    }
    const onCanPlay = () => setStatus((st) => (st === 'error' ? st : 'ready'))
    const onError = () => {
      // With hls.js attached, its own fatal errors decide; a media error
      // of the element is fatal either way.
      if (v.error) setStatus('error')
    }
    v.addEventListener('loadedmetadata', onMeta)
    v.addEventListener('timeupdate', onTime)
    v.addEventListener('pause', save)
    v.addEventListener('playing', onPlaying)
    v.addEventListener('ended', onEnd)
    v.addEventListener('error', onError)
    v.addEventListener('waiting', onWaiting)
    v.addEventListener('play', onPlay)
    v.addEventListener('canplay', onCanPlay)
    return () => {
      save()
      v.removeEventListener('loadedmetadata', onMeta)
      v.removeEventListener('timeupdate', onTime)
      v.removeEventListener('pause', save)
      v.removeEventListener('playing', onPlaying)
      v.removeEventListener('ended', onEnd)
      v.removeEventListener('error', onError)
      v.removeEventListener('waiting', onWaiting)
      v.removeEventListener('play', onPlay)
      v.removeEventListener('canplay', onCanPlay)
    }
  }, [src, resumeID, attempt])

  useEffect(() => {
    if (video.current) video.current.playbackRate = rate
  }, [rate])

  // An overlay (the paywall) stops the picture under it.
  useEffect(() => {
    if (overlay) video.current?.pause()
  }, [overlay])

  // Escape leaves the fill mode, as it leaves fullscreen.
  useEffect(() => {
    if (!fill) return
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setFill(false)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [fill])

  const fullscreen = () => {
    const v = video.current as WebkitVideo | null
    if (!v) return
    // iPhone Safari has no element fullscreen; the video itself can go.
    if (typeof v.webkitEnterFullscreen === 'function' && !box.current?.requestFullscreen) v.webkitEnterFullscreen()
    else void box.current?.requestFullscreen?.().catch(() => v.webkitEnterFullscreen?.())
  }

  const playable = src != null && !overlay && status !== 'error'
  return (
    <div ref={box} className={`${styles.player} ${fill ? styles.fill : ''}`} data-testid="player" data-status={src ? status : 'nosource'}>
      <div className={styles.stage}>
        {src ? (
          <video
            ref={video}
            className={styles.video}
            playsInline
            controls={!overlay && status !== 'error'}
            preload="metadata"
            poster={poster}
            data-testid="player-video"
          />
        ) : (
          poster && <LazyImage src={poster} alt="" className={styles.poster} eager />
        )}
        {src && status === 'loading' && !overlay && (
          <div className={styles.center} aria-hidden="true">
            <Spinner size={28} />
          </div>
        )}
        {src && status === 'error' && !overlay && (
          <div className={`${styles.cover} ${styles.message}`} role="alert" data-testid="player-error">
            <p>{t('player.error')}</p>
            <button type="button" className={styles.pill} onClick={() => {
                onRetry?.()
                setAttempt((n) => n + 1)
              }}
              data-testid="player-retry"
            >
              {t('state.retry')}
            </button>
          </div>
        )}
        {!src && !overlay && (
          <div className={`${styles.cover} ${styles.message}`} data-testid="player-nosource">
            <p>{emptyText ?? t('player.noSource')}</p>
          </div>
        )}
        {overlay && <div className={`${styles.cover} ${styles.veil}`} data-testid="player-veil">{overlay}</div>}
      </div>
      {playable && (
        <div className={styles.bar}>
          <div className={styles.rateWrap}>
            <button
              type="button"
              className={styles.tool}
              aria-haspopup="true"
              aria-expanded={menu}
              aria-label={t('player.rate', { rate: formatRate(rate) })}
              onClick={() => setMenu((m) => !m)}
              data-testid="player-rate"
            >
              {formatRate(rate)}
            </button>
            {menu && (
              <div className={styles.menu} role="group" aria-label={t('player.rateMenu')}>
                {PLAYBACK_RATES.map((r) => (
                  <button
                    key={r}
                    type="button"
                    className={`${styles.menuItem} ${r === rate ? styles.on : ''}`}
                    aria-pressed={r === rate}
                    onClick={() => {
                      setRate(r)
                      setMenu(false)
                    }}
                    data-testid="player-rate-option"
                  >
                    {formatRate(r)}
                  </button>
                ))}
              </div>
            )}
          </div>
          <button type="button" className={styles.tool} aria-pressed={fill} onClick={() => setFill((f) => !f)} data-testid="player-fill">
            {fill ? t('player.fillExit') : t('player.fill')}
          </button>
          <button type="button" className={styles.tool} onClick={fullscreen} data-testid="player-fullscreen">
            {t('player.fullscreen')}
          </button>
        </div>
      )}
    </div>
  )
}

// PosterFrame is the player's frame with its poster only, in the same place
// and size: for a page that knows the video's cover before it knows what
// the viewer may play (a first visit, while the guest signs in). A plain
// image, shown at once: it takes over from the picture the server drew
// there (app/first-screen.ts), so it must not fade in.
export function PosterFrame({ poster }: { poster: string }) {
  return (
    <div className={styles.player} data-testid="player-poster">
      <div className={styles.stage}>
        <img src={poster} alt="" className={styles.poster} />
      </div>
    </div>
  )
}
