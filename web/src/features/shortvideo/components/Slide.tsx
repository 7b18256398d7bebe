// One clip of the feed: its <video> (a source only when the feed says so),
// the title, the like and share buttons, and the paywall when access is
// refused. Whether it plays is the feed's decision (role); the slide only
// carries it out on its element.
import { memo, useEffect, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { t } from '@/i18n'
import { Intent } from '@/lib/purchase'
import { newIdempotencyKey } from '@/lib/wallet'
import { formatCount } from '@/lib/time'
import { BuySheet } from '@/components/BuySheet'
import { LazyImage } from '@/components/LazyImage'
import { StateView } from '@/components/StateView'
import { Spinner } from '@/components/Spinner'
import { useVideoInfo } from '@/features/shortvideo/api/get-info'
import { useFollowUploader, useLike } from '@/features/shortvideo/api/interact'
import { preloadAttr, SETTLE_MS, type SourceRole } from '@/features/shortvideo/feed'
import { attach, release, type Attached } from '@/features/shortvideo/hls'
import { shareVideo } from '@/lib/share'
import { useVideoURL } from '@/stores/config'
import { toast } from '@/lib/toast'
import { useUserStore } from '@/stores/user'
import type { Refusal, ShortVideo } from '@/features/shortvideo/types'
import styles from './ShortFeed.module.css'

interface Props {
  video: ShortVideo
  slot: number // position in the feed
  role: SourceRole
  muted: boolean
  onPlaying: (id: number) => void
  // onMuteRefused: the browser refused to play with sound (no gesture
  // yet for this element); the feed goes back to muted.
  onMuteRefused: () => void
  registerVideo: (slot: number, el: HTMLVideoElement | null) => void
}

const UNLOCK: Record<Refusal, { label: 'short.login' | 'short.openVip' | 'short.openSvip' | 'short.topUp'; to: string }> = {
  login: { label: 'short.login', to: '/mine/login' },
  need_vip: { label: 'short.openVip', to: '/mine/vipcenter' },
  need_svip: { label: 'short.openSvip', to: '/mine/vipcenter' },
  need_coins: { label: 'short.topUp', to: '/mine/usercoinchongzhi' },
}

// Memoised: a swipe changes the role of two slides (the one left and the
// one arrived at); the others must not re-render while the track moves.
export const Slide = memo(function Slide({ video, slot, role, muted, onPlaying, onMuteRefused, registerVideo }: Props) {
  const info = useVideoInfo(video.id)
  const like = useLike(video.id)
  const follow = useFollowUploader()
  const me = useUserStore((s) => s.user)
  const navigate = useNavigate()
  const el = useRef<HTMLVideoElement>(null)
  const box = useRef<HTMLElement>(null)
  const attached = useRef<Attached | null>(null)
  const roleRef = useRef(role)
  roleRef.current = role
  const [failed, setFailed] = useState(false)
  const [previewEnded, setPreviewEnded] = useState(false)
  const [paused, setPaused] = useState(false)

  const data = info.data
  const url = useVideoURL(data?.playback?.url ?? null)
  const hasSource = role !== 'none' && url != null && !failed

  useEffect(() => {
    registerVideo(slot, el.current)
    return () => registerVideo(slot, null)
  }, [slot, registerVideo])

  // Attach while the slide should have a source; detach when it leaves
  // the source window (or unmounts).
  useEffect(() => {
    const v = el.current
    if (!hasSource || !v || !url) return
    let cancelled = false
    const warm = preloadAttr(roleRef.current) === 'auto'
    void attach(v, url, warm ? 'auto' : 'metadata', () => setFailed(true)).then((a) => {
      if (cancelled) return a.detach()
      attached.current = a
      if (roleRef.current === 'play' || roleRef.current === 'preload') a.warm()
      if (roleRef.current === 'play') play(v)
    })
    return () => {
      cancelled = true
      attached.current?.detach()
      attached.current = null
      release(v)
    }
    // play is stable for this element; role changes are handled below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hasSource, url])

  const play = (v: HTMLVideoElement) => {
    v.play().catch((e: unknown) => {
      // Sound needs a gesture on some browsers: fall back to muted.
      if (e instanceof DOMException && e.name === 'NotAllowedError' && !v.muted) {
        v.muted = true
        onMuteRefused()
        v.play().catch(() => undefined)
      }
    })
  }

  // Exactly one plays: the current slide; every other one pauses.
  useEffect(() => {
    const v = el.current
    if (!v) return
    if (role === 'play' || role === 'preload') attached.current?.warm()
    if (role === 'play') {
      setPaused(false)
      if (attached.current) play(v)
      return
    }
    v.pause()
    // A clip swiped away starts again from its beginning when it returns.
    // The seek waits until the snap is over: seeking makes hls.js load and
    // append, main-thread work that would cost frames while the track moves.
    if (v.currentTime === 0) return
    const timer = setTimeout(() => {
      if (roleRef.current !== 'play') v.currentTime = 0
    }, SETTLE_MS)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [role])

  useEffect(() => {
    if (el.current) el.current.muted = muted
  }, [muted])

  // Slides off screen are out of the tab order and the accessibility tree
  // (set on the element: React 18 does not know the inert attribute).
  useEffect(() => {
    box.current?.toggleAttribute('inert', role !== 'play')
  }, [role])

  const refused = data != null && !data.access.allowed
  // The uploader, when a user's upload (not the platform's own clip), with
  // a follow button; only registered users follow, a guest is sent to sign
  // in with a word on why.
  const up = data?.uploader ?? null
  const onFollow = () => {
    if (!up) return
    if (!me || me.isGuest) {
      toast.text(t('people.guestFollow'))
      navigate('/mine/login')
      return
    }
    follow.mutate({ uid: up.uid, isFollow: !up.isFollow })
  }
  const showPaywall = refused && (data.playback == null || !data.playback.preview || previewEnded)
  const unlock = data?.paywall ? UNLOCK[data.paywall.reason] : null
  // A priced clip is bought right here (the purchase sheet); its info is
  // then fetched afresh and the full stream plays.
  const [buying, setBuying] = useState(false)
  const intent = useRef<Intent | null>(null)
  intent.current ??= new Intent(() => newIdempotencyKey('buy'))

  return (
    <section
      className={styles.slide}
      style={{ top: `${slot * 100}%` }}
      data-testid="short-slide"
      data-slot={slot}
      data-video-id={video.id}
      data-role={role}
      aria-roledescription="slide"
      aria-label={video.title}
      ref={box}
    >
      {video.cover && <img className={styles.poster} src={video.cover} alt="" decoding="async" loading={role === 'none' ? 'lazy' : 'eager'} />}
      <video
        ref={el}
        className={styles.video}
        muted={muted}
        playsInline
        loop={!refused}
        preload={hasSource ? preloadAttr(role) : 'none'}
        onPlaying={() => {
          setPaused(false)
          if (roleRef.current === 'play') onPlaying(video.id)
          else el.current?.pause()
        }}
        onPause={() => roleRef.current === 'play' && setPaused(true)}
        onEnded={() => refused && setPreviewEnded(true)}
        data-testid="short-video"
      />
      {role === 'play' && paused && !showPaywall && (
        <div className={styles.pausedMark} aria-hidden="true">
          <svg width="64" height="64" viewBox="0 0 24 24" fill="currentColor">
            <path d="M8 5v14l11-7z" />
          </svg>
        </div>
      )}
      {info.isPending && role === 'play' && (
        <div className={styles.center}>
          <Spinner size={28} label={t('state.loading')} />
        </div>
      )}
      {info.isError && (
        <div className={styles.center}>
          <StateView kind="error" compact error={info.error} onRetry={() => void info.refetch()} />
        </div>
      )}
      {data && !refused && data.playback == null && (
        <p className={styles.notice} data-testid="short-nomedia">
          {t('short.noMedia')}
        </p>
      )}
      {failed && <p className={styles.notice}>{t('short.playFailed')}</p>}
      {refused && data.playback?.preview && !previewEnded && (
        <p className={styles.previewBadge} data-testid="short-preview">
          {data.playback.previewMs > 0 ? t('short.previewFor', { n: Math.floor(data.playback.previewMs / 1000) }) : t('short.preview')}
        </p>
      )}
      {showPaywall && data.paywall && unlock && <div className={styles.paywallVeil} aria-hidden="true" data-testid="short-veil" />}
      {showPaywall && data.paywall && unlock && (
        <div className={styles.paywall} data-testid="short-paywall" data-reason={data.paywall.reason}>
          <p className={styles.paywallTip}>{data.paywall.tip}</p>
          {data.paywall.reason === 'need_coins' && data.paywall.coins > 0 ? (
            <button type="button" className={styles.paywallAction} onClick={() => setBuying(true)} data-testid="short-buy">
              {t('paywall.buy')} · {t('paywall.price', { n: data.paywall.coins })}
            </button>
          ) : (
            <Link to={unlock.to} className={styles.paywallAction} data-testid="short-unlock">
              {t(unlock.label)}
            </Link>
          )}
        </div>
      )}
      {buying && data?.paywall && (
        <BuySheet
          target={{ kind: 'video', id: video.id }}
          price={data.paywall.coins}
          intent={intent.current}
          onClose={() => setBuying(false)}
          onBought={() => {
            setBuying(false)
            setPreviewEnded(false)
            void info.refetch()
          }}
        />
      )}
      <div className={styles.meta}>
        <h2 className={styles.title}>{video.title}</h2>
        {video.tags.length > 0 && <p className={styles.tags}>{video.tags.map((tag) => `#${tag}`).join(' ')}</p>}
      </div>
      <div className={styles.actions}>
        {up && (
          <div className={styles.uploader}>
            <Link to={`/usercenter/${up.uid}`} className={styles.face} aria-label={up.name || t('short.uploader')} data-testid="short-uploader">
              {up.portrait ? <LazyImage src={up.portrait} alt="" className={styles.faceImg} /> : <span aria-hidden="true">{(up.name || '?').slice(0, 1)}</span>}
            </Link>
            {up.uid !== me?.uid && (
              <button
                type="button"
                className={`${styles.follow} ${up.isFollow ? styles.followed : ''}`}
                aria-pressed={up.isFollow}
                aria-label={t('people.follow')}
                disabled={follow.isPending}
                onClick={onFollow}
                data-testid="short-follow"
              >
                <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="3.2" strokeLinecap="round" strokeLinejoin="round">
                  <path d={up.isFollow ? 'm5 12.5 4.5 4.5L19 7.5' : 'M12 5v14M5 12h14'} />
                </svg>
              </button>
            )}
          </div>
        )}
        <button
          type="button"
          className={`${styles.action} ${data?.isLike ? styles.liked : ''}`}
          aria-pressed={data?.isLike ?? false}
          disabled={!data}
          onClick={() => data && like.mutate(!data.isLike)}
          data-testid="short-like"
        >
          <svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" fill={data?.isLike ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="2">
            <path d="M12 20.5s-7.5-4.6-9.6-9.2C1 8 3.1 4.5 6.6 4.5c2.1 0 3.6 1.2 5.4 3.1 1.8-1.9 3.3-3.1 5.4-3.1 3.5 0 5.6 3.5 4.2 6.8-2.1 4.6-9.6 9.2-9.6 9.2z" />
          </svg>
          <span className="prima-sr-only">{t('short.like')}</span>
          <span className={styles.count}>{formatCount(data?.likeCount ?? video.likeCount)}</span>
        </button>
        <button
          type="button"
          className={styles.action}
          onClick={() => void shareVideo(video.id, video.title)}
          data-testid="short-share"
        >
          <svg width="30" height="30" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
            <path d="M4 12v7a1 1 0 0 0 1 1h14a1 1 0 0 0 1-1v-7" />
            <path d="m16 6-4-4-4 4" />
            <path d="M12 2v13" />
          </svg>
          <span className={styles.count}>{t('short.share')}</span>
        </button>
      </div>
    </section>
  )
})
