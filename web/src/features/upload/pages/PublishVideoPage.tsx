// publishvideo (/community/publishvideo): a user uploads a video. The file
// goes up through XMLHttpRequest (lib/upload.ts) with a progress bar and a
// cancel button; a refused file says why (too large, wrong type,
// unreadable), a failed send can be retried with the same file. Once the
// server has it, the page polls its transcoding until it is ready (then it
// plays here) or failed (with the reason). Below, the user's uploads with
// their states. The community's publishing page (features/community/publish)
// wraps this page: onSent hands it the sent asset and `after` (its post
// form) shows under the result; operators put an uploaded video into the
// catalogue (POST /api/admin/videos/media).
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { formatDuration, relativeTime } from '@/lib/time'
import { uploadFile, UploadCancelled, type UploadHandle } from '@/lib/upload'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { VideoPlayer } from '@/components/VideoPlayer'
import { useUserStore } from '@/stores/user'
import { useAsset, useMyUploads } from '@/features/upload/api/uploads'
import { uploadKeys } from '@/features/upload/keys'
import { ACCEPT, formatBytes, percent, precheck, retryable } from '@/features/upload/rules'
import type { Asset } from '@/features/upload/types'
import styles from './PublishVideoPage.module.css'

type Phase =
  | { kind: 'idle' }
  | { kind: 'invalid'; file: File; reason: MessageKey }
  | { kind: 'sending'; file: File; sent: number; total: number }
  | { kind: 'cancelled'; file: File }
  | { kind: 'failed'; file: File; tip: string; retry: boolean }
  | { kind: 'sent'; file: File; asset: Asset }

const STATE_KEY: Record<Asset['state'], MessageKey> = {
  processing: 'upload.state.processing',
  ready: 'upload.state.ready',
  failed: 'upload.state.failed',
}

function Progress({ sent, total }: { sent: number; total: number }) {
  const p = percent(sent, total)
  return (
    <div className={styles.progressBox}>
      <div
        className={styles.track}
        role="progressbar"
        aria-label={t('upload.progress')}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={p}
        data-testid="upload-progress"
      >
        <div className={styles.bar} style={{ transform: `scaleX(${p / 100})` }} />
      </div>
      <p className={styles.meta}>
        <span data-testid="upload-percent">{p}%</span>
        <span>
          {formatBytes(sent)} / {formatBytes(total)}
        </span>
      </p>
    </div>
  )
}

// Processing shows the server's view of a sent file, polled until it settles.
function Processing({ asset: first, token }: { asset: Asset; token: string }) {
  const q = useAsset(first.id, token)
  const a = q.data ?? first
  return (
    <div className={styles.result} data-testid="upload-result" data-state={a.state}>
      <p className={`${styles.state} ${styles[a.state]}`} role="status">
        {a.state === 'processing' && <Spinner size={16} />}
        {t(STATE_KEY[a.state])}
      </p>
      {a.state === 'processing' && <p className={styles.hint}>{t('upload.processingHint')}</p>}
      {a.state === 'failed' && (
        <p className={styles.error} role="alert" data-testid="upload-transcode-error">
          {t('upload.transcodeFailed', { reason: a.error || '-' })}
        </p>
      )}
      {a.state === 'ready' && a.master && (
        <>
          <div className={styles.player}>
            <VideoPlayer src={a.master} poster={a.poster} />
          </div>
          <p className={styles.hint}>
            {t('upload.readyHint', { duration: formatDuration(Math.round(a.durationMs / 1000)), size: `${a.width}×${a.height}` })}
          </p>
        </>
      )}
      {q.isError && a.state === 'processing' && (
        <p className={styles.hint} data-testid="upload-poll-error">
          {t('upload.pollFailed')}
        </p>
      )}
    </div>
  )
}

function MyUploads({ token }: { token: string }) {
  const q = useMyUploads(token)
  let body
  if (q.isPending) body = <StateView kind="loading" compact />
  else if (q.isError && !q.data) body = <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  else {
    const list = q.data.pages.flatMap((p) => p.list)
    body =
      list.length === 0 ? (
        <StateView kind="empty" compact title={t('upload.mineEmpty')} />
      ) : (
        <>
          <ul className={styles.list}>
            {list.map((a) => (
              <li key={a.id} className={styles.item} data-testid="upload-item" data-id={a.id} data-state={a.state}>
                <div className={styles.thumb}>{a.poster ? <img src={a.poster} alt="" loading="lazy" decoding="async" /> : null}</div>
                <div className={styles.itemText}>
                  <p className={`${styles.state} ${styles[a.state]}`}>
                    {t(STATE_KEY[a.state])}
                    {a.durationMs > 0 && <span className={styles.dim}> · {formatDuration(Math.round(a.durationMs / 1000))}</span>}
                  </p>
                  {a.state === 'failed' && a.error && <p className={styles.itemError}>{a.error}</p>}
                  <p className={styles.dim}>{relativeTime(a.createdAt)}</p>
                </div>
              </li>
            ))}
          </ul>
          <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
        </>
      )
  }
  return (
    <section className={styles.mine} aria-labelledby="my-uploads">
      <h2 id="my-uploads" className={styles.h2}>
        {t('upload.mine')}
      </h2>
      {body}
    </section>
  )
}

export default function PublishVideoPage({ onSent, after }: { onSent?: (asset: Asset) => void; after?: ReactNode } = {}) {
  const token = useUserStore((s) => s.token)
  const qc = useQueryClient()
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' })
  const handle = useRef<UploadHandle<Asset> | null>(null)
  const input = useRef<HTMLInputElement>(null)

  // Leaving the page cancels an upload in flight.
  useEffect(() => () => handle.current?.abort(), [])

  const send = (file: File) => {
    setPhase({ kind: 'sending', file, sent: 0, total: file.size })
    const h = uploadFile<Asset>('/api/app/vid/uploadStatic', file, {
      onProgress: (sent, total) => setPhase((p) => (p.kind === 'sending' && p.file === file ? { ...p, sent, total } : p)),
    })
    handle.current = h
    h.promise.then(
      (asset) => {
        if (handle.current !== h) return
        handle.current = null
        setPhase({ kind: 'sent', file, asset })
        onSent?.(asset)
        void qc.invalidateQueries({ queryKey: uploadKeys.mine(token) })
      },
      (err: unknown) => {
        if (handle.current !== h) return
        handle.current = null
        if (err instanceof UploadCancelled) setPhase({ kind: 'cancelled', file })
        else if (err instanceof ApiError) setPhase({ kind: 'failed', file, tip: err.tip, retry: retryable(err) })
        else setPhase({ kind: 'failed', file, tip: t('net.failed'), retry: true })
      },
    )
  }

  const pick = (file: File | undefined) => {
    if (!file) return
    const reason = precheck(file)
    if (reason) setPhase({ kind: 'invalid', file, reason })
    else send(file)
  }

  const choose = () => input.current?.click()
  const busy = phase.kind === 'sending'

  if (token == null) {
    return (
      <div className={styles.page} data-testid="publish-video-page">
        <NavBar title={t('route.publishvideo.title')} back="/community" />
        <main className={styles.body}>
          <StateView kind="empty" title={t('upload.signIn')} />
          <Link to="/mine/login" className={styles.primary}>
            {t('mine.login')}
          </Link>
        </main>
      </div>
    )
  }

  return (
    <div className={styles.page} data-testid="publish-video-page">
      <NavBar title={t('route.publishvideo.title')} back="/community" />
      <main className={styles.body}>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          className={styles.file}
          tabIndex={-1}
          aria-hidden="true"
          data-testid="upload-input"
          onChange={(e) => {
            pick(e.target.files?.[0])
            e.target.value = '' // picking the same file again fires change again
          }}
        />
        {phase.kind === 'idle' || phase.kind === 'invalid' ? (
          <button type="button" className={styles.drop} onClick={choose} data-testid="upload-pick">
            <span className={styles.plus} aria-hidden="true">
              +
            </span>
            <span className={styles.dropTitle}>{t('upload.pick')}</span>
            <span className={styles.hint}>{t('upload.limits')}</span>
          </button>
        ) : (
          <div className={styles.card} data-testid="upload-card" data-phase={phase.kind}>
            <p className={styles.name} title={phase.file.name}>
              {phase.file.name}
            </p>
            <p className={styles.dim}>{formatBytes(phase.file.size)}</p>
            {phase.kind === 'sending' && <Progress sent={phase.sent} total={phase.total} />}
            {phase.kind === 'cancelled' && (
              <p className={styles.hint} role="status" data-testid="upload-cancelled">
                {t('upload.cancelled')}
              </p>
            )}
            {phase.kind === 'failed' && (
              <p className={styles.error} role="alert" data-testid="upload-error">
                {phase.tip}
              </p>
            )}
            {phase.kind === 'sent' && <Processing asset={phase.asset} token={token} />}
            <div className={styles.actions}>
              {busy && (
                <button type="button" className={styles.secondary} onClick={() => handle.current?.abort()} data-testid="upload-cancel">
                  {t('upload.cancel')}
                </button>
              )}
              {(phase.kind === 'cancelled' || (phase.kind === 'failed' && phase.retry)) && (
                <button type="button" className={styles.primary} onClick={() => send(phase.file)} data-testid="upload-retry">
                  {t('upload.retry')}
                </button>
              )}
              {!busy && (
                <button type="button" className={styles.secondary} onClick={choose} data-testid="upload-another">
                  {phase.kind === 'sent' ? t('upload.another') : t('upload.repick')}
                </button>
              )}
            </div>
          </div>
        )}
        {phase.kind === 'sent' && after}
        {phase.kind === 'invalid' && (
          <p className={styles.error} role="alert" data-testid="upload-error">
            {t(phase.reason)}
          </p>
        )}
        <MyUploads token={token} />
      </main>
    </div>
  )
}
