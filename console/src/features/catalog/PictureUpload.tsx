// Picture uploads in the catalogue, through the console's upload call
// with progress (@/lib/upload, as the videos editor): one picture for an
// ad or a pre-sale banner (UploadPicture), several at once for a gallery
// (GalleryPictures: upload, remove, reorder).
import { useRef, useState } from 'react'
import { Button, Progress, Space, Typography } from 'antd'
import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PictureOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { errorTip } from '@/components/ErrorState'
import { ApiError } from '@/lib/api'
import { uploadFile, type MediaView } from '@/lib/upload'
import { movePicture, updatePicture, type PictureItem } from './pictures'

// tipOf is what the operator reads about a failed upload: the server's
// tip, or our own words (a file that is not a picture).
function tipOf(e: unknown, t: ReturnType<typeof useT>): string {
  return !(e instanceof ApiError) && e instanceof Error ? e.message : errorTip(e, t)
}

// Uploaded is a picture ready to be named by pictureId.
export interface Uploaded {
  id: number
  thumb?: string
}

// UploadPicture: an 上传图片 button, the upload's progress and its error.
// onDone gets the ready picture; onBusy says while one is under way.
export function UploadPicture({ onDone, onBusy, testid }: { onDone: (u: Uploaded) => void; onBusy?: (busy: boolean) => void; testid: string }) {
  const t = useT()
  const input = useRef<HTMLInputElement>(null)
  const [pct, setPct] = useState<number | null>(null)
  const [done, setDone] = useState(false)
  const [err, setErr] = useState('')
  const pick = async (file: File | undefined) => {
    if (!file) return
    setErr('')
    setDone(false)
    setPct(0)
    onBusy?.(true)
    try {
      const a: MediaView = await uploadFile(file, setPct)
      if (a.kind !== 'image' || a.state !== 'ready') throw new Error(t('catalog.pictures.notPicture'))
      setPct(100)
      setDone(true)
      onDone({ id: a.id, thumb: a.thumb })
    } catch (e) {
      setPct(null)
      setErr(tipOf(e, t))
    } finally {
      onBusy?.(false)
      if (input.current) input.current.value = ''
    }
  }
  return (
    <div className="catalog-upload">
      <input ref={input} type="file" accept="image/*" className="file-input" onChange={(e) => void pick(e.target.files?.[0])} data-testid={`${testid}-file`} />
      <Space wrap>
        <Button icon={<PictureOutlined />} onClick={() => input.current?.click()} disabled={pct !== null && !done} data-testid={testid}>
          {t('catalog.pictures.upload')}
        </Button>
        {pct !== null && <Progress percent={pct} size="small" className="upload-progress" status={done ? 'success' : 'active'} data-testid={`${testid}-progress`} />}
        {done && <Typography.Text type="secondary">{t('catalog.pictures.uploaded')}</Typography.Text>}
      </Space>
      {err && (
        <Typography.Text type="danger" className="catalog-upload-error">
          {err}
        </Typography.Text>
      )}
    </div>
  )
}

// GalleryPictures edits a gallery's picture list: upload several at once
// (two at a time, each with its progress), remove, move up and down. The
// first picture is the cover.
export function GalleryPictures({ value, onChange }: { value: PictureItem[]; onChange: (f: (l: PictureItem[]) => PictureItem[]) => void }) {
  const t = useT()
  const input = useRef<HTMLInputElement>(null)
  const seq = useRef(0)
  const add = async (files: File[]) => {
    const items = files.map((f) => ({ key: `u${++seq.current}`, name: f.name, pct: 0, state: 'uploading' as const }))
    onChange((l) => [...l, ...items])
    if (input.current) input.current.value = ''
    let next = 0
    const worker = async () => {
      while (next < files.length) {
        const i = next++
        const key = items[i].key
        try {
          const a = await uploadFile(files[i], (pct) => onChange((l) => updatePicture(l, key, (p) => ({ ...p, pct }))))
          if (a.kind !== 'image' || a.state !== 'ready') throw new Error(t('catalog.pictures.notPicture'))
          onChange((l) => updatePicture(l, key, (p) => ({ ...p, pct: 100, state: 'done', assetId: a.id, thumb: a.thumb })))
        } catch (e) {
          const error = tipOf(e, t)
          onChange((l) => updatePicture(l, key, (p) => ({ ...p, state: 'failed', error })))
        }
      }
    }
    await Promise.all([worker(), worker()])
  }
  return (
    <div className="catalog-pictures" data-testid="gallery-pictures">
      <input ref={input} type="file" accept="image/*" multiple className="file-input" onChange={(e) => void add(Array.from(e.target.files ?? []))} data-testid="gallery-files" />
      <Button icon={<PictureOutlined />} onClick={() => input.current?.click()} data-testid="gallery-upload">
        {t('catalog.pictures.uploadMany')}
      </Button>
      <ol className="catalog-picture-list">
        {value.map((p, i) => (
          <li key={p.key} className="catalog-picture" data-testid="gallery-picture">
            {p.thumb ? <img src={p.thumb} alt="" className="catalog-picture-thumb" /> : <span className="catalog-picture-thumb" />}
            <div className="catalog-picture-body">
              <Typography.Text ellipsis className="catalog-picture-name">
                {i === 0 ? `${t('catalog.pictures.cover')} · ` : ''}
                {p.name}
              </Typography.Text>
              {p.state === 'uploading' && <Progress percent={p.pct} size="small" status="active" />}
              {p.state === 'failed' && <Typography.Text type="danger">{p.error}</Typography.Text>}
            </div>
            <Space size={4}>
              <Button size="small" icon={<ArrowUpOutlined />} aria-label={t('catalog.pictures.up')} disabled={i === 0} onClick={() => onChange((l) => movePicture(l, i, -1))} />
              <Button size="small" icon={<ArrowDownOutlined />} aria-label={t('catalog.pictures.down')} disabled={i === value.length - 1} onClick={() => onChange((l) => movePicture(l, i, 1))} />
              <Button size="small" danger icon={<DeleteOutlined />} aria-label={t('catalog.pictures.remove')} disabled={p.state === 'uploading'} onClick={() => onChange((l) => l.filter((x) => x.key !== p.key))} />
            </Space>
          </li>
        ))}
      </ol>
    </div>
  )
}

// usePictureProblem: a pictures.ts problem in the operator's words.
export function usePictureProblem(): (key: string | null) => string | null {
  const t = useT()
  return (key) => (key ? t(key as MessageKey) : null)
}
