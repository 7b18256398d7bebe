// suggest (/mine/suggest): send feedback (text, up to four pictures, an
// optional contact) and read my feedback with the operators' replies. A
// picture goes up as soon as it is picked (POST /api/app/vid/uploadStatic,
// with progress); the feedback then names the uploaded ids.
import { useEffect, useRef, useState } from 'react'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { uploadFile, type UploadHandle } from '@/lib/upload'
import { chars, CONTACT_MAX, FEEDBACK_IMAGES, FEEDBACK_MAX, FEEDBACK_MIN, feedbackProblem } from '@/lib/support'
import { LoadMore } from '@/components/LoadMore'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useMyFeedback, useSendFeedback } from '@/features/support/api/feedback'
import type { Feedback } from '@/features/support/types'
import styles from '@/features/support/components/support.module.css'

interface Pick {
  key: number
  preview: string // object URL of the picked file
  progress: number // 0..100
  id?: number // the asset, once uploaded
  error?: string
  handle?: UploadHandle<unknown>
}

let nextKey = 1

function Pictures({ picks, setPicks }: { picks: Pick[]; setPicks: (f: (p: Pick[]) => Pick[]) => void }) {
  const update = (key: number, patch: Partial<Pick>) => setPicks((ps) => ps.map((p) => (p.key === key ? { ...p, ...patch } : p)))
  const add = (files: FileList | null) => {
    if (!files) return
    const room = FEEDBACK_IMAGES - picks.length
    for (const file of Array.from(files).slice(0, room)) {
      const key = nextKey++
      const handle = uploadFile<{ id: number }>('/api/app/vid/uploadStatic', file, {
        onProgress: (sent, total) => update(key, { progress: total > 0 ? Math.round((sent / total) * 100) : 0 }),
      })
      setPicks((ps) => [...ps, { key, preview: URL.createObjectURL(file), progress: 0, handle }])
      handle.promise.then(
        (a) => update(key, { id: a.id, progress: 100 }),
        (e: unknown) => update(key, { error: e instanceof ApiError && e.tip ? e.tip : t('sup.fb.uploadFailed') }),
      )
    }
  }
  const remove = (p: Pick) => {
    p.handle?.abort()
    URL.revokeObjectURL(p.preview)
    setPicks((ps) => ps.filter((x) => x.key !== p.key))
  }
  return (
    <div className={styles.pics} data-testid="fb-pictures">
      {picks.map((p) => (
        <div key={p.key} className={styles.pic} data-testid="fb-picture" data-state={p.error ? 'failed' : p.id ? 'ready' : 'uploading'}>
          <img src={p.preview} alt="" />
          {(p.error || p.id == null) && (
            <span className={styles.picState} role={p.error ? 'alert' : undefined}>
              {p.error ?? t('sup.fb.uploading', { p: p.progress })}
            </span>
          )}
          <button type="button" className={styles.picRemove} onClick={() => remove(p)} aria-label={t('sup.fb.remove')}>
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
      {picks.length < FEEDBACK_IMAGES && (
        <label className={`${styles.addPic} prima-hit`} aria-label={t('sup.fb.add')} style={{ position: 'relative' }}>
          +
          <input
            type="file"
            accept="image/jpeg,image/png,image/gif,image/webp"
            multiple
            data-testid="fb-file"
            onChange={(e) => {
              add(e.currentTarget.files)
              e.currentTarget.value = ''
            }}
          />
        </label>
      )}
    </div>
  )
}

function Form() {
  const [content, setContent] = useState('')
  const [contact, setContact] = useState('')
  const [picks, setPicks] = useState<Pick[]>([])
  const [tried, setTried] = useState(false)
  const send = useSendFeedback()
  const latest = useRef(picks)
  latest.current = picks
  // Object URLs are released when the page goes.
  useEffect(() => () => latest.current.forEach((p) => URL.revokeObjectURL(p.preview)), [])

  const problem = feedbackProblem(content)
  const busy = picks.some((p) => p.id == null && !p.error)
  const n = chars(content.trim())
  const submit = () => {
    setTried(true)
    if (problem) return
    if (busy) {
      toast.text(t('sup.fb.err.busy'))
      return
    }
    const images = picks.filter((p) => p.id != null).map((p) => p.id as number)
    send.mutate(
      { content: content.trim(), images, contact: contact.trim() },
      {
        onSuccess: () => {
          toast.success(t('sup.fb.sent'))
          picks.forEach((p) => URL.revokeObjectURL(p.preview))
          setContent('')
          setContact('')
          setPicks([])
          setTried(false)
        },
        onError: (e) => toast.fail(e instanceof ApiError && e.tip ? e.tip : t('state.error')),
      },
    )
  }
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
      noValidate
    >
      <div className={styles.group}>
        <textarea
          className={styles.textarea}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          placeholder={t('sup.fb.placeholder')}
          aria-label={t('route.suggest.title')}
          aria-invalid={tried && problem != null}
          data-testid="fb-content"
        />
        <p className={`${styles.counter} ${n > FEEDBACK_MAX ? styles.over : ''}`}>{t('sup.fb.count', { n, max: FEEDBACK_MAX })}</p>
      </div>
      {tried && problem && (
        <p className={styles.error} role="alert" data-testid="fb-error">
          {problem === 'short' ? t('sup.fb.err.short', { min: FEEDBACK_MIN }) : t('sup.fb.err.long', { max: FEEDBACK_MAX })}
        </p>
      )}
      <section className={styles.section}>
        <h2 className={styles.sectionTitle}>{t('sup.fb.pictures', { max: FEEDBACK_IMAGES })}</h2>
        <div className={styles.group}>
          <Pictures picks={picks} setPicks={setPicks} />
        </div>
      </section>
      <section className={styles.section}>
        <div className={`${styles.group} ${styles.field}`}>
          <label className={styles.fieldLabel} htmlFor="fb-contact">
            {t('sup.fb.contact')}
          </label>
          <input
            id="fb-contact"
            className={styles.input}
            value={contact}
            maxLength={CONTACT_MAX}
            onChange={(e) => setContact(e.target.value)}
            placeholder={t('sup.fb.contactPlaceholder')}
            data-testid="fb-contact"
          />
        </div>
      </section>
      <button type="submit" className={`${styles.submit} prima-hit`} disabled={send.isPending} data-testid="fb-submit">
        {t('sup.fb.submit')}
      </button>
    </form>
  )
}

function Record({ f }: { f: Feedback }) {
  return (
    <div className={`${styles.row} ${styles.record}`} data-testid="fb-record" data-id={f.id} data-status={f.status}>
      <div className={styles.recordHead}>
        <span>{relativeTime(f.createdAt)}</span>
        <span className={`${styles.chip} ${f.status === 'replied' ? styles.chipDone : ''}`}>
          {t(f.status === 'replied' ? 'sup.fb.replied' : 'sup.fb.open')}
        </span>
      </div>
      <p className={styles.recordText}>{f.content}</p>
      {f.images.length > 0 && (
        <div className={styles.recordPics}>
          {f.images.map((p, i) => (
            <a key={p.id} href={p.display} target="_blank" rel="noopener noreferrer">
              <img src={p.thumb} alt={t('sup.fb.picture', { n: i + 1 })} loading="lazy" data-testid="fb-record-pic" />
            </a>
          ))}
        </div>
      )}
      {f.replies.map((r) => (
        <p key={r.id} className={styles.reply} data-testid="fb-reply">
          <b>{t('sup.fb.reply')}：</b>
          {r.body}
        </p>
      ))}
    </div>
  )
}

function Mine({ token }: { token: string }) {
  const q = useMyFeedback(token)
  let body
  if (q.isPending) body = <StateView kind="loading" compact />
  else if (q.isError) body = <StateView kind="error" compact error={q.error} onRetry={() => q.refetch()} />
  else {
    const list = q.data.pages.flatMap((p) => p.list)
    body =
      list.length === 0 ? (
        <StateView kind="empty" compact title={t('sup.fb.empty')} />
      ) : (
        <>
          <div className={styles.group} data-testid="fb-records">
            {list.map((f) => (
              <Record key={f.id} f={f} />
            ))}
          </div>
          <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
        </>
      )
  }
  return (
    <section className={styles.section} style={{ marginTop: 28 }}>
      <h2 className={styles.sectionTitle}>{t('sup.fb.mine')}</h2>
      {body}
    </section>
  )
}

export default function SuggestPage() {
  const token = useUserStore((s) => s.token)
  return (
    <div className={styles.page} data-testid="suggest-page">
      <NavBar title={t('route.suggest.title')} back="/mine" />
      <main className={styles.body}>
        {token == null ? (
          <StateView kind="empty" title={t('sup.fb.signIn')} />
        ) : (
          <>
            <Form />
            <Mine token={token} />
          </>
        )}
      </main>
    </div>
  )
}
