// detail (/detail/:id): the player at the top, then the title, play count,
// tags, like / favourite / report, and the related videos. A video the
// viewer may not watch plays its preview (when there is one) and then shows
// the paywall. One play is counted when playback starts, or on open when
// there is nothing to play.
import { useCallback, useEffect, useRef, useState } from 'react'
import { Link, useNavigate, useParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { formatCount } from '@/lib/time'
import { NavBar } from '@/components/NavBar'
import { Paywall } from '@/components/Paywall'
import { StateView } from '@/components/StateView'
import { VideoCard, VideoCardSkeleton, VideoGrid } from '@/components/VideoCard'
import { PosterFrame, VideoPlayer } from '@/components/VideoPlayer'
import { useUserStore } from '@/stores/user'
import { isNotFound, useVideo, videoQueryOptions } from '@/features/video/api/get-video'
import { useCollect, useLike } from '@/features/video/api/interact'
import { countPlay } from '@/features/video/api/play'
import { parseID } from '@/features/video/id'
import { videoKeys } from '@/features/video/keys'
import type { VideoDetail, VideoSummary } from '@/features/video/types'
import { FlagIcon, HeartIcon, ShareIcon, StarIcon } from '@/features/video/components/ActionIcons'
import { shareVideo } from '@/lib/share'
import { ReportSheet } from '@/features/video/components/ReportSheet'
import styles from './DetailPage.module.css'

export default function DetailPage() {
  const id = parseID(useParams().id)
  const token = useUserStore((s) => s.token)
  const signingIn = useUserStore((s) => s.signingIn)
  const q = useVideo(id, token, !signingIn)

  useEffect(() => {
    window.scrollTo(0, 0)
  }, [id])

  // The page's HTML may carry the video's title and cover (app/boot.ts):
  // drawn at once while the detail itself waits (for the guest sign-in on
  // a first visit, then for vid/info).
  const summary = useQueryClient().getQueryData<VideoSummary>(videoKeys.summary(id))

  let body
  if (!Number.isFinite(id) || (q.isError && isNotFound(q.error))) {
    body = <NotFound />
  } else if (q.isPending) {
    body = <DetailSkeleton summary={summary} />
  } else if (q.isError) {
    body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  } else {
    body = <Detail key={id} video={q.data} token={token} />
  }
  return (
    <div className={styles.page} data-testid="detail-page">
      <NavBar title={q.data?.title ?? summary?.title ?? t('route.detail.title')} />
      <main>{body}</main>
    </div>
  )
}

function NotFound() {
  return (
    <div className={styles.notFound} data-testid="detail-notfound">
      <StateView kind="empty" title={t('detail.notFound')} message={t('detail.notFoundHint')} />
      <Link to="/home" className={styles.homeBtn} data-testid="detail-home">
        {t('soon.toHome')}
      </Link>
    </div>
  )
}

function DetailSkeleton({ summary }: { summary?: VideoSummary }) {
  return (
    <div aria-busy="true" data-testid="detail-loading">
      {summary ? <PosterFrame poster={summary.cover} /> : <div className={`${styles.skPlayer} prima-skeleton`} />}
      <div className={styles.info}>
        {summary ? (
          <h2 className={styles.title} data-testid="detail-summary-title">
            {summary.title}
          </h2>
        ) : (
          <span className={`${styles.skLine} prima-skeleton`} />
        )}
        <span className={`${styles.skLine} ${styles.skShort} prima-skeleton`} />
      </div>
      <VideoGrid>
        {Array.from({ length: 4 }, (_, i) => (
          <VideoCardSkeleton key={i} />
        ))}
      </VideoGrid>
    </div>
  )
}

function Detail({ video, token }: { video: VideoDetail; token: string | null }) {
  const qc = useQueryClient()
  const navigate = useNavigate()
  const like = useLike(video.id, token)
  const collect = useCollect(video.id, token)
  const [reporting, setReporting] = useState(false)
  const [previewEnded, setPreviewEnded] = useState(false)
  const closeReport = useCallback(() => setReporting(false), [])

  const allowed = video.access.allowed
  // The server hands out only what the viewer may see: the full stream, or
  // the preview when access is refused. Each answer signs the URL afresh,
  // so the one playing is pinned: a later answer replaces it only when
  // what may be watched changed (access, media attached), or on a retry
  // after the stream failed (its signature may have expired).
  const latest = video.playback?.url ?? null
  const isPreview = !allowed || video.playback?.preview === true
  const mode = `${allowed}/${isPreview}/${latest != null}`
  const [pinned, setPinned] = useState({ mode, url: latest })
  if (pinned.mode !== mode) setPinned({ mode, url: latest })
  const src = pinned.mode === mode ? pinned.url : latest
  const refreshSource = () => {
    qc.fetchQuery({ ...videoQueryOptions(video.id, token), staleTime: 0 })
      .then((d) => setPinned((p) => ({ ...p, url: d.playback?.url ?? p.url })))
      .catch(() => {
        // The player shows its error again if the old URL still fails.
      })
  }

  // One play per opening of this video (the component is keyed by id).
  const counted = useRef(false)
  const count = useCallback(() => {
    if (counted.current) return
    counted.current = true
    countPlay(video.id)
      .then((r) => {
        qc.setQueryData<VideoDetail>(videoKeys.detail(video.id, token), (d) => (d ? { ...d, playCount: r.playCount } : d))
        void qc.invalidateQueries({ queryKey: videoKeys.mine('history', token) })
      })
      .catch(() => {
        // A play that was not counted costs the viewer nothing; no toast.
      })
  }, [qc, video.id, token])

  useEffect(() => {
    if (!src) count()
  }, [src, count])

  // Bought: the detail is fetched afresh (access allowed, the full stream)
  // and the player switches to it at once; the bought list is stale.
  const [justBought, setJustBought] = useState(false)
  const afterPurchase = () => {
    setJustBought(true)
    setPreviewEnded(false)
    void qc.invalidateQueries({ queryKey: videoKeys.detail(video.id, token) })
  }

  const needSignIn = () => {
    if (token) return false
    navigate('/mine/login')
    return true
  }

  const overlay =
    !allowed && video.paywall && (!src || previewEnded) ? (
      <Paywall
        paywall={video.paywall}
        previewed={previewEnded}
        buy={{ target: { kind: 'video', id: video.id }, onBought: afterPurchase }}
      />
    ) : undefined

  return (
    <>
      <VideoPlayer
        src={src}
        poster={video.cover}
        resumeID={isPreview ? undefined : video.id}
        onStart={count}
        onEnded={() => {
          if (isPreview) setPreviewEnded(true)
        }}
        overlay={overlay}
        onRetry={refreshSource}
        autoPlay={justBought}
      />
      <section className={styles.info}>
        <h2 className={styles.title} data-testid="detail-title">
          {video.title}
        </h2>
        <p className={styles.meta}>
          <span data-testid="detail-plays">{t('detail.plays', { n: formatCount(video.playCount) })}</span>
          {video.playback?.preview && (
            <span className={styles.previewTag} data-testid="detail-preview">
              {video.playback.previewMs > 0 ? t('detail.previewFor', { n: Math.floor(video.playback.previewMs / 1000) }) : t('detail.preview')}
            </span>
          )}
        </p>
        {video.tags.length > 0 && (
          <ul className={styles.tags} aria-label={t('detail.tags')}>
            {video.tags.map((tag) => (
              <li key={tag} className={styles.tag}>
                #{tag}
              </li>
            ))}
          </ul>
        )}
        <div className={styles.actions}>
          <button
            type="button"
            className={`${styles.action} ${video.isLike ? styles.liked : ''}`}
            aria-pressed={video.isLike}
            onClick={() => !needSignIn() && like.mutate(!video.isLike)}
            data-testid="detail-like"
          >
            <HeartIcon on={video.isLike} />
            {/* The name stays "like" (aria-pressed tells the state); the
                count is read after it. */}
            <span className="prima-sr-only">{t('detail.like')} </span>
            <span>{formatCount(video.likeCount)}</span>
          </button>
          <button
            type="button"
            className={`${styles.action} ${video.isCollect ? styles.collected : ''}`}
            aria-pressed={video.isCollect}
            onClick={() => !needSignIn() && collect.mutate(!video.isCollect)}
            data-testid="detail-collect"
          >
            <StarIcon on={video.isCollect} />
            <span>{video.isCollect ? t('detail.collected') : t('detail.collect')}</span>
          </button>
          <button type="button" className={styles.action} onClick={() => void shareVideo(video.id, video.title)} data-testid="detail-share">
            <ShareIcon />
            <span>{t('short.share')}</span>
          </button>
          <button
            type="button"
            className={styles.action}
            onClick={() => !needSignIn() && setReporting(true)}
            data-testid="detail-report"
          >
            <FlagIcon />
            <span>{t('detail.report')}</span>
          </button>
        </div>
      </section>
      <section className={styles.related} aria-labelledby="related-title" data-testid="detail-related">
        <h2 id="related-title" className={styles.relatedTitle}>
          {t('detail.related')}
        </h2>
        {video.related.length === 0 ? (
          <p className={styles.none}>{t('detail.noRelated')}</p>
        ) : (
          <VideoGrid>
            {video.related.map((v) => (
              <VideoCard key={v.id} video={v} />
            ))}
          </VideoGrid>
        )}
      </section>
      {reporting && <ReportSheet id={video.id} onClose={closeReport} />}
    </>
  )
}
