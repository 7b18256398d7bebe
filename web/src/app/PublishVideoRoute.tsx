// publishvideo (/community/publishvideo), composed here because it joins
// two features: the upload page (features/upload:
// progress, cancel, retry, the transcoding state) with the post form under
// the sent video: a caption, a topic, a section, then 发布. The video may
// still be transcoding when it is posted. A draft keeps the caption and the
// sent video, so coming back restores both without sending it again.
// Guests may upload (as before) but registering is what lets them post.
import { useRef, useState } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import UploadPage from '@/features/upload/pages/PublishVideoPage'
import { useAsset } from '@/features/upload/api/uploads'
import { useUserStore } from '@/stores/user'
import { Counter, DraftBar, Pickers, styles, useAuthor, useDraftSaver, usePublish } from '@/features/community/publish/components/Shared'
import { TEXT_MAX, chars, clearDraft, loadDraft, type VideoDraft } from '@/features/community/publish/rules'

export default function PublishVideoRoute() {
  const me = useAuthor()
  const restored = useRef(me.state === 'ok' ? loadDraft('video', me.uid) : null)
  const d = restored.current
  const [assetID, setAsset] = useState(d?.assetID ?? 0)
  // shown: the restored video is on screen (not the uploader).
  const [shown, setShown] = useState(Boolean(d?.assetID))
  const [text, setText] = useState(d?.text ?? '')
  const [topicID, setTopic] = useState(d?.topicID ?? 0)
  const [moduleID, setModule] = useState(d?.moduleID ?? 0)
  const { publish, busy, error } = usePublish('video', me.uid)
  const draft: VideoDraft = { text, assetID, topicID, moduleID }
  const { saved, setSaved } = useDraftSaver('video', me.uid, draft, (v) => !v.text && !v.assetID)

  const reset = () => {
    setText('')
    setTopic(0)
    setModule(0)
    setAsset(0)
    setShown(false)
    clearDraft('video', me.uid)
    restored.current = null
    setSaved(false)
  }

  const tooLong = chars(text.trim()) > TEXT_MAX
  const form =
    me.state === 'ok' ? (
      <section className={styles.rows} style={{ padding: '4px 14px 12px' }} data-testid="publish-video-form">
        <textarea
          className={styles.textarea}
          value={text}
          placeholder={t('pub.videoText')}
          onChange={(e) => setText(e.target.value)}
          data-testid="publish-text"
        />
        <Counter n={chars(text.trim())} max={TEXT_MAX} />
        <Pickers topicID={topicID} moduleID={moduleID} onTopic={setTopic} onModule={setModule} />
        <DraftBar saved={saved} restored={restored.current != null} onClear={reset} />
        {error && (
          <p className={styles.error} role="alert" data-testid="publish-error">
            {error}
          </p>
        )}
        <button
          type="button"
          className={styles.primary}
          style={{ width: '100%' }}
          disabled={busy || tooLong || assetID === 0}
          onClick={() => publish({ text: text.trim(), videoAssetID: assetID, topicID, moduleID })}
          data-testid="publish-submit"
        >
          {busy ? t('pub.publishing') : t('pub.publish')}
        </button>
      </section>
    ) : me.state === 'guest' ? (
      <div className={styles.rows} style={{ padding: 14 }} data-testid="publish-guest">
        <p className={styles.hint}>{t('pub.guestHint')}</p>
        <Link to="/mine/register" className={styles.primary}>
          {t('pub.guestAction')}
        </Link>
      </div>
    ) : null

  if (shown && assetID) {
    return (
      <div className={styles.page} data-testid="publish-video-page">
        <NavBar title={t('route.publishvideo.title')} back="/community/publish/rule" />
        <main className={styles.body}>
          <RestoredVideo id={assetID} onChange={() => setShown(false)} />
          {form}
        </main>
      </div>
    )
  }
  return (
    <UploadPage
      onSent={(a) => {
        setAsset(a.id)
      }}
      after={form}
    />
  )
}

// RestoredVideo is the draft's sent video: its state and poster.
function RestoredVideo({ id, onChange }: { id: number; onChange: () => void }) {
  const token = useUserStore((s) => s.token)
  const q = useAsset(id, token)
  const a = q.data
  return (
    <div className={styles.rows} style={{ display: 'flex', gap: 12, padding: 12, alignItems: 'center' }} data-testid="publish-video-restored" data-state={a?.state ?? ''}>
      <div style={{ width: 96, height: 64, borderRadius: 8, overflow: 'hidden', background: '#000', flex: 'none' }}>
        {a?.poster ? <img src={a.poster} alt="" style={{ width: '100%', height: '100%', objectFit: 'cover' }} /> : null}
      </div>
      <div style={{ flex: 1, minWidth: 0 }}>
        <p className={styles.hint} style={{ marginTop: 0 }}>
          {q.isPending ? <Spinner size={14} /> : a?.state === 'processing' ? t('pub.videoProcessing') : a?.state === 'failed' ? a.error || t('pub.uploadFailed') : '✓'}
        </p>
        <button type="button" className={styles.linkBtn} onClick={onChange} data-testid="publish-video-change">
          {t('upload.another')}
        </button>
      </div>
    </div>
  )
}
