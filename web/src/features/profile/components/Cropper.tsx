// Square crop of a chosen picture before it becomes a portrait: the
// preview canvas draws exactly the square that will be uploaded (rules.ts
// cropRect), the user drags to move it and slides to zoom, and "use"
// renders it at PORTRAIT_SIZE as a JPEG. Cropping on the phone sends a
// 512 px square instead of a 12 MP photo.
import { useEffect, useRef, useState } from 'react'
import { t } from '@/i18n'
import { Sheet } from '@/components/Sheet'
import { cropRect, PORTRAIT_SIZE } from '@/features/profile/rules'
import styles from './edit.module.css'

const VIEW = 260 // CSS px of the preview square

interface Props {
  image: ImageBitmap
  onCancel: () => void
  onCrop: (jpeg: Blob) => void
}

export function Cropper({ image, onCancel, onCrop }: Props) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const [zoom, setZoom] = useState(1)
  const [off, setOff] = useState({ dx: 0, dy: 0 })
  const drag = useRef<{ x: number; y: number; dx: number; dy: number } | null>(null)
  const { width: w, height: h } = image
  const r = cropRect(w, h, zoom, off.dx, off.dy)

  useEffect(() => {
    const c = canvas.current
    const ctx = c?.getContext('2d')
    if (!c || !ctx) return
    const px = Math.round(VIEW * (window.devicePixelRatio || 1))
    c.width = c.height = px
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(image, r.x, r.y, r.size, r.size, 0, 0, px, px)
  }, [image, r.x, r.y, r.size])

  const onPointerDown = (e: React.PointerEvent) => {
    e.currentTarget.setPointerCapture(e.pointerId)
    // Start from where the square really is (clamped), so a drag past an
    // edge does not have to be undone before the picture moves back.
    drag.current = { x: e.clientX, y: e.clientY, dx: r.x - (w - r.size) / 2, dy: r.y - (h - r.size) / 2 }
  }
  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current
    if (!d) return
    const scale = r.size / VIEW // source px per CSS px
    setOff({ dx: d.dx - (e.clientX - d.x) * scale, dy: d.dy - (e.clientY - d.y) * scale })
  }
  const onPointerUp = () => {
    drag.current = null
  }

  const use = () => {
    const out = document.createElement('canvas')
    out.width = out.height = Math.min(PORTRAIT_SIZE, r.size)
    const ctx = out.getContext('2d')
    if (!ctx) return
    ctx.imageSmoothingQuality = 'high'
    ctx.drawImage(image, r.x, r.y, r.size, r.size, 0, 0, out.width, out.height)
    out.toBlob((b) => b && onCrop(b), 'image/jpeg', 0.9)
  }

  return (
    <Sheet title={t('edit.crop')} onClose={onCancel} testid="crop-sheet">
      <div className={styles.cropWrap}>
        <canvas
          ref={canvas}
          className={styles.cropCanvas}
          style={{ width: VIEW, height: VIEW }}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          data-testid="crop-canvas"
        />
        <p className={styles.hint}>{t('edit.cropHint')}</p>
        <label className={styles.zoom}>
          <span>{t('edit.zoom')}</span>
          <input type="range" min={1} max={4} step={0.01} value={zoom} onChange={(e) => setZoom(Number(e.target.value))} data-testid="crop-zoom" />
        </label>
        <div className={styles.sheetActions}>
          <button type="button" className={`${styles.button} prima-hit`} onClick={onCancel}>
            {t('edit.cancel')}
          </button>
          <button type="button" className={`${styles.button} ${styles.primary} prima-hit`} onClick={use} data-testid="crop-use">
            {t('edit.use')}
          </button>
        </div>
      </div>
    </Sheet>
  )
}
