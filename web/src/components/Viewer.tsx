// The full-screen picture viewer: a horizontal track of slides moved by a
// transform (not scroll-snap, which misbehaves in WebKit), swiped with one
// finger, pinch-zoomed with two, zoomed by a double tap, panned when zoomed,
// and driven by the arrow keys and Escape on a desktop. Only the current
// slide and its neighbours mount a picture. The maths lives in lib/gestures.ts.
// Shared by the gallery and the community's post detail.
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react'
import { t } from '@/i18n'
import {
  clampPan,
  clampScale,
  distance,
  doubleTapScale,
  edgeResist,
  fitSize,
  isDoubleTap,
  midpoint,
  MIN_SCALE,
  panLimit,
  pinchScale,
  swipeTarget,
  TAP_SLOP,
  zoomAbout,
  type Point,
  type Size,
  type Tap,
} from '@/lib/gestures'
import { Picture } from '@/components/Picture'
import styles from './Viewer.module.css'

// ViewerImage is what the viewer reads of a picture (a gallery image or a
// post picture fits it).
export interface ViewerImage {
  position: number
  width: number
  height: number
  placeholder: string
  display?: string
  displayWebp?: string
}

interface Props {
  images: ViewerImage[]
  start: number
  title: string
  onClose: () => void
}

type Gesture =
  | { kind: 'idle' }
  | { kind: 'pending' | 'swipe' | 'pan'; sx: number; sy: number; startPan: Point; lastX: number; lastT: number; vx: number }
  | { kind: 'pinch'; startDist: number; startScale: number; startPan: Point; startMid: Point }

export function Viewer({ images, start, title, onClose }: Props) {
  const count = images.length
  const [index, setIndex] = useState(() => Math.min(Math.max(0, start), count - 1))
  const [dx, setDx] = useState(0)
  const [scale, setScale] = useState(MIN_SCALE)
  const [pan, setPan] = useState<Point>({ x: 0, y: 0 })
  const [dragging, setDragging] = useState(false)
  const [view, setView] = useState<Size>({ w: 0, h: 0 })
  const stage = useRef<HTMLDivElement>(null)
  const closeBtn = useRef<HTMLButtonElement>(null)
  const pointers = useRef(new Map<number, Point>())
  const gesture = useRef<Gesture>({ kind: 'idle' })
  const lastTap = useRef<Tap | null>(null)
  // The latest values for handlers that outlive a render (window listeners).
  const live = useRef({ index, scale, pan, view })
  live.current = { index, scale, pan, view }

  const fittedOf = useCallback(
    (i: number, v: Size) => fitSize({ w: images[i]?.width ?? v.w, h: images[i]?.height ?? v.h }, v),
    [images],
  )

  const go = useCallback(
    (i: number) => {
      const next = Math.min(count - 1, Math.max(0, i))
      setIndex(next)
      setDx(0)
      if (next !== live.current.index) {
        setScale(MIN_SCALE)
        setPan({ x: 0, y: 0 })
      }
    },
    [count],
  )

  useLayoutEffect(() => {
    const el = stage.current
    if (!el) return
    const measure = () => setView({ w: el.clientWidth, h: el.clientHeight })
    measure()
    window.addEventListener('resize', measure)
    return () => window.removeEventListener('resize', measure)
  }, [])

  // Focus moves into the dialog and back to what opened it; the page under
  // it does not scroll.
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    closeBtn.current?.focus()
    const overflow = document.body.style.overflow
    document.body.style.overflow = 'hidden'
    return () => {
      document.body.style.overflow = overflow
      before?.focus?.()
    }
  }, [])

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose()
      else if (e.key === 'ArrowRight') go(live.current.index + 1)
      else if (e.key === 'ArrowLeft') go(live.current.index - 1)
      else return
      e.preventDefault()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [go, onClose])

  // rel is a pointer's position relative to the stage's centre.
  const rel = (p: Point): Point => {
    const r = stage.current!.getBoundingClientRect()
    return { x: p.x - r.left - r.width / 2, y: p.y - r.top - r.height / 2 }
  }

  const onDown = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'mouse' && e.button !== 0) return
    e.currentTarget.setPointerCapture?.(e.pointerId)
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY })
    const pts = [...pointers.current.values()]
    if (pts.length >= 2) {
      gesture.current = {
        kind: 'pinch',
        startDist: distance(pts[0], pts[1]),
        startScale: scale,
        startPan: pan,
        startMid: rel(midpoint(pts[0], pts[1])),
      }
      setDx(0)
      setDragging(true)
    } else {
      gesture.current = { kind: 'pending', sx: e.clientX, sy: e.clientY, startPan: pan, lastX: e.clientX, lastT: e.timeStamp, vx: 0 }
    }
  }

  const onMove = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.has(e.pointerId)) return
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY })
    const g = gesture.current
    const fitted = fittedOf(index, view)
    if (g.kind === 'pinch') {
      const pts = [...pointers.current.values()]
      if (pts.length < 2) return
      const s = pinchScale(g.startScale, g.startDist, distance(pts[0], pts[1]))
      const mid = rel(midpoint(pts[0], pts[1]))
      const z = zoomAbout(g.startPan, g.startScale, s, g.startMid, fitted, view)
      setScale(z.scale)
      setPan(clampPan({ x: z.pan.x + mid.x - g.startMid.x, y: z.pan.y + mid.y - g.startMid.y }, panLimit(fitted, view, z.scale)))
      return
    }
    if (g.kind === 'idle') return
    const mx = e.clientX - g.sx
    const my = e.clientY - g.sy
    const dt = e.timeStamp - g.lastT
    if (dt > 0) g.vx = 0.8 * ((e.clientX - g.lastX) / dt) + 0.2 * g.vx
    g.lastX = e.clientX
    g.lastT = e.timeStamp
    if (g.kind === 'pending') {
      if (Math.hypot(mx, my) < TAP_SLOP) return
      g.kind = scale > MIN_SCALE ? 'pan' : 'swipe'
      setDragging(true)
    }
    if (g.kind === 'swipe') setDx(edgeResist(index, count, mx))
    else setPan(clampPan({ x: g.startPan.x + mx, y: g.startPan.y + my }, panLimit(fitted, view, scale)))
  }

  const onUp = (e: ReactPointerEvent<HTMLDivElement>) => {
    if (!pointers.current.delete(e.pointerId)) return
    const g = gesture.current
    if (g.kind === 'pinch') {
      const rest = [...pointers.current.values()]
      if (rest.length === 1) {
        // One finger stays down: it carries on as a pan.
        gesture.current = { kind: 'pan', sx: rest[0].x, sy: rest[0].y, startPan: pan, lastX: rest[0].x, lastT: e.timeStamp, vx: 0 }
        return
      }
      if (rest.length === 0) {
        gesture.current = { kind: 'idle' }
        setDragging(false)
        if (scale <= MIN_SCALE + 0.02) {
          setScale(MIN_SCALE)
          setPan({ x: 0, y: 0 })
        }
      }
      return
    }
    gesture.current = { kind: 'idle' }
    setDragging(false)
    if (g.kind === 'swipe') {
      go(swipeTarget(index, count, e.clientX - g.sx, g.vx, view.w))
      return
    }
    if (g.kind === 'pending' && e.type === 'pointerup') {
      const tap = { t: e.timeStamp, x: e.clientX, y: e.clientY }
      if (isDoubleTap(lastTap.current, tap)) {
        lastTap.current = null
        const z = zoomAbout(pan, scale, doubleTapScale(scale), rel(tap), fittedOf(index, view), view)
        setScale(clampScale(z.scale))
        setPan(z.pan)
      } else {
        lastTap.current = tap
      }
    }
  }

  return (
    <div
      className={styles.overlay}
      role="dialog"
      aria-modal="true"
      aria-label={title}
      data-testid="gallery-viewer"
      data-index={index}
      data-scale={scale.toFixed(2)}
    >
      <div
        ref={stage}
        className={styles.stage}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerCancel={onUp}
      >
        <div
          className={`${styles.track} ${dragging ? '' : styles.settle}`}
          style={{ transform: `translate3d(calc(${-index * 100}% + ${dx}px), 0, 0)` }}
        >
          {images.map((im, i) => {
            const near = Math.abs(i - index) <= 1
            const fitted = fittedOf(i, view)
            const current = i === index
            return (
              <div key={im.position} className={styles.slide} style={{ left: `${i * 100}%` }} aria-hidden={!current}>
                {near && view.w > 0 && (
                  <div
                    className={`${styles.zoom} ${dragging ? '' : styles.settle}`}
                    style={{
                      width: fitted.w,
                      height: fitted.h,
                      transform: current ? `translate3d(${pan.x}px, ${pan.y}px, 0) scale(${scale})` : undefined,
                    }}
                    data-testid={current ? 'viewer-current' : undefined}
                  >
                    <Picture
                      src={im.display}
                      webp={im.displayWebp}
                      placeholder={im.placeholder}
                      alt={t('gallery.pictureAlt', { n: i + 1, title })}
                      className={styles.picture}
                      eager
                    />
                  </div>
                )}
              </div>
            )
          })}
        </div>
      </div>
      <div className={styles.bar}>
        <span className={styles.counter} aria-live="polite" data-testid="viewer-counter">
          {index + 1}/{count}
        </span>
        <button
          ref={closeBtn}
          type="button"
          className={styles.close}
          onClick={onClose}
          aria-label={t('common.close')}
          data-testid="viewer-close"
        >
          <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
            <path d="M6 6l12 12M18 6L6 18" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </div>
  )
}
