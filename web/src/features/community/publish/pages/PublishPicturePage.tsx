// publishpicture (/community/publishpicture): up to 9 pictures, each
// uploaded at once with its own progress, reordered with the move buttons
// or removed; an optional title, the text with a counter, a topic and a
// section. The form is kept as a device draft; publishing sends the
// uploaded pictures' ids in the order shown.
import { useEffect, useRef, useState } from 'react'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { uploadFile, type UploadHandle } from '@/lib/upload'
import { toast } from '@/lib/toast'
import { Counter, DraftBar, Pickers, PublishFrame, styles, useAuthor, useDraftSaver, usePublish } from '@/features/community/publish/components/Shared'
import { IMAGE_ACCEPT, MAX_PICTURES, TEXT_MAX, TITLE_MAX, chars, clearDraft, imageProblem, loadDraft, move, percent, type UploadedAsset, pictureProblem, type PictureDraft } from '@/features/community/publish/rules'

interface Item {
  key: string
  id: number // the asset id once uploaded, 0 before
  preview: string // an object URL of the file, or the asset's thumbnail
  status: 'sending' | 'done' | 'failed'
  sent: number
  total: number
  file?: File
  error?: string
}

let seq = 0
const nextKey = () => `p${++seq}`

export default function PublishPicturePage() {
  const me = useAuthor()
  const restored = useRef(me.state === 'ok' ? loadDraft('picture', me.uid) : null)
  const d = restored.current
  const [title, setTitle] = useState(d?.title ?? '')
  const [text, setText] = useState(d?.text ?? '')
  const [topicID, setTopic] = useState(d?.topicID ?? 0)
  const [moduleID, setModule] = useState(d?.moduleID ?? 0)
  const [items, setItems] = useState<Item[]>(() =>
    (d?.pictures ?? []).map((p) => ({ key: nextKey(), id: p.id, preview: p.thumb, status: 'done', sent: 1, total: 1 })),
  )
  const uploads = useRef(new Map<string, UploadHandle<UploadedAsset>>())
  const input = useRef<HTMLInputElement>(null)
  const { publish, busy, error } = usePublish('picture', me.uid)

  useEffect(() => {
    const live = uploads.current
    return () => live.forEach((h) => h.abort())
  }, [])

  const draft: PictureDraft = {
    title,
    text,
    topicID,
    moduleID,
    pictures: items.filter((i) => i.status === 'done').map((i) => ({ id: i.id, thumb: i.preview.startsWith('blob:') ? '' : i.preview })),
  }
  const { saved, setSaved } = useDraftSaver('picture', me.uid, draft, (v) => !v.title && !v.text && v.pictures.length === 0)

  const send = (key: string, file: File) => {
    const h = uploadFile<UploadedAsset>('/api/app/vid/uploadStatic', file, {
      onProgress: (sent, total) => setItems((l) => l.map((i) => (i.key === key ? { ...i, sent, total } : i))),
    })
    uploads.current.set(key, h)
    h.promise.then(
      (a) => {
        uploads.current.delete(key)
        setItems((l) => l.map((i) => (i.key === key ? { ...i, id: a.id, status: 'done', preview: a.thumb || i.preview, sent: i.total } : i)))
      },
      (e: unknown) => {
        uploads.current.delete(key)
        const tip = e instanceof ApiError ? e.tip : t('pub.uploadFailed')
        setItems((l) => l.map((i) => (i.key === key ? { ...i, status: 'failed', error: tip } : i)))
        toast.fail(tip)
      },
    )
  }

  const add = (files: FileList | null) => {
    if (!files) return
    const room = MAX_PICTURES - items.length
    const picked = Array.from(files)
    if (picked.length > room) toast.text(t('pub.tooMany'))
    const fresh: Item[] = []
    for (const f of picked.slice(0, Math.max(0, room))) {
      const why = imageProblem(f)
      if (why) {
        toast.fail(t(why))
        continue
      }
      fresh.push({ key: nextKey(), id: 0, preview: URL.createObjectURL(f), status: 'sending', sent: 0, total: f.size, file: f })
    }
    setItems((l) => [...l, ...fresh])
    for (const it of fresh) send(it.key, it.file!)
  }

  const remove = (key: string) => {
    uploads.current.get(key)?.abort()
    uploads.current.delete(key)
    setItems((l) => l.filter((i) => i.key !== key))
  }
  const retry = (it: Item) => {
    if (!it.file) return
    setItems((l) => l.map((i) => (i.key === it.key ? { ...i, status: 'sending', sent: 0, error: undefined } : i)))
    send(it.key, it.file)
  }

  const uploaded = items.filter((i) => i.status === 'done').length
  const pending = items.filter((i) => i.status === 'sending').length
  const problem = pictureProblem({ text, title, uploaded, pending })

  const reset = () => {
    items.forEach((i) => remove(i.key))
    setTitle('')
    setText('')
    setTopic(0)
    setModule(0)
    clearDraft('picture', me.uid)
    restored.current = null
    setSaved(false)
  }

  return (
    <PublishFrame
      title={t('route.publishpicture.title')}
      testid="publish-picture-page"
      canPublish={problem == null}
      busy={busy}
      onPublish={() =>
        publish({
          title: title.trim(),
          text: text.trim(),
          pictures: items.filter((i) => i.status === 'done').map((i) => i.id),
          topicID,
          moduleID,
        })
      }
    >
      <input
        ref={input}
        type="file"
        accept={IMAGE_ACCEPT}
        multiple
        className={styles.file}
        tabIndex={-1}
        aria-hidden="true"
        data-testid="publish-picture-input"
        onChange={(e) => {
          add(e.target.files)
          e.target.value = ''
        }}
      />
      <input
        className={styles.input}
        value={title}
        maxLength={TITLE_MAX * 2}
        placeholder={t('pub.title')}
        onChange={(e) => setTitle(e.target.value)}
        data-testid="publish-title"
      />
      <textarea
        className={styles.textarea}
        value={text}
        placeholder={t('pub.text')}
        onChange={(e) => setText(e.target.value)}
        data-testid="publish-text"
      />
      <Counter n={chars(text.trim())} max={TEXT_MAX} />
      <ul className={styles.grid} data-testid="publish-pictures">
        {items.map((it, i) => (
          <li key={it.key} className={styles.cell} data-testid="publish-picture" data-id={it.id} data-status={it.status}>
            {it.preview ? <img src={it.preview} alt="" /> : null}
            <span className={styles.index}>{i + 1}</span>
            {it.status === 'sending' && (
              <>
                <div className={styles.cellOverlay} data-testid="publish-picture-progress">
                  {t('pub.uploading', { p: percent(it.sent, it.total) })}
                </div>
                <div className={styles.cellBar}>
                  <div style={{ transform: `scaleX(${percent(it.sent, it.total) / 100})` }} />
                </div>
              </>
            )}
            {it.status === 'failed' && (
              <button type="button" className={styles.cellOverlay} onClick={() => retry(it)} data-testid="publish-picture-retry" title={it.error}>
                <span>{t('pub.uploadFailed')}</span>
                {it.file && <span>{t('pub.retry')}</span>}
              </button>
            )}
            {it.status === 'done' && items.length > 1 && (
              <div className={styles.cellTools}>
                <button
                  type="button"
                  className={styles.tool}
                  disabled={i === 0}
                  aria-label={t('pub.moveLeft')}
                  onClick={() => setItems((l) => move(l, i, -1))}
                  data-testid="publish-move-left"
                >
                  ‹
                </button>
                <button
                  type="button"
                  className={styles.tool}
                  disabled={i === items.length - 1}
                  aria-label={t('pub.moveRight')}
                  onClick={() => setItems((l) => move(l, i, 1))}
                  data-testid="publish-move-right"
                >
                  ›
                </button>
              </div>
            )}
            <button type="button" className={styles.removeBtn} aria-label={t('pub.remove')} onClick={() => remove(it.key)} data-testid="publish-remove">
              ×
            </button>
          </li>
        ))}
        {items.length < MAX_PICTURES && (
          <li>
            <button type="button" className={styles.add} onClick={() => input.current?.click()} data-testid="publish-add-picture">
              <span className={styles.plus} aria-hidden="true">
                +
              </span>
              {t('pub.picturesCount', { n: items.length })}
            </button>
          </li>
        )}
      </ul>
      <DraftBar saved={saved} restored={restored.current != null} onClear={reset} />
      <Pickers topicID={topicID} moduleID={moduleID} onTopic={setTopic} onModule={setModule} />
      {problem && (items.length > 0 || text !== "" || title !== "") && (
        <p className={styles.hint} data-testid="publish-problem">
          {t(problem)}
        </p>
      )}
      {error && (
        <p className={styles.error} role="alert" data-testid="publish-error">
          {error}
        </p>
      )}
    </PublishFrame>
  )
}
