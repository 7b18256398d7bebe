// The vertical swipe feed. The track of slides moves by transform
// (translate3d), driven by pointer events and settled by a CSS transition:
// no scroll snapping, which WebKit handles badly with videos inside. Only
// a window of slides is mounted (feed.ts decides which, and which of them
// hold a source); exactly the current one plays, muted until the first
// tap, which unmutes inside its own handler (iOS only lets sound start in
// a user gesture).
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react'
import { t } from '@/i18n'
import { StateView } from '@/components/StateView'
import { axisOf, pushSample, velocityOf, type Sample } from '@/lib/gesture'
import { useFeed } from '@/features/shortvideo/api/get-feed'
import { sendPlay } from '@/features/shortvideo/api/interact'
import { clampIndex, dragOffset, mountedAround, releaseTarget, SETTLE_MS, shouldLoadMore, slideRole } from '@/features/shortvideo/feed'
import { browserPath, loadHls } from '@/features/shortvideo/hls'
import type { FeedSource } from '@/features/shortvideo/types'
import { Slide } from './Slide'
import styles from './ShortFeed.module.css'

const SNAP = 'transform 260ms cubic-bezier(0.22, 0.61, 0.36, 1)'
const WHEEL_GAP_MS = 450

interface Props {
  source: FeedSource | null
  // sourceState covers the step before the feed knows what to list (the
  // module list loading or failing).
  sourceState?: { pending: boolean; error: unknown; retry: () => void }
  top?: ReactNode
  fill: 'tab' | 'page'
}

interface Drag {
  id: number
  x0: number
  y0: number
  axis: 'x' | 'y' | null
  samples: Sample[]
  dy: number
}

export function ShortFeed({ source, sourceState, top, fill }: Props) {
  const feed = useFeed(source)
  const videos = feed.data?.pages.flatMap((p) => p.list) ?? []
  const count = videos.length
  const [index, setIndex] = useState(0)
  const [muted, setMuted] = useState(true)
  const [height, setHeight] = useState(0)
  const box = useRef<HTMLDivElement>(null)
  const track = useRef<HTMLDivElement>(null)
  const drag = useRef<Drag | null>(null)
  const dragged = useRef(false)
  const lastWheel = useRef(0)
  const els = useRef(new Map<number, HTMLVideoElement>())
  const counted = useRef(new Set<number>())
  const cur = clampIndex(index, count)
  const ready = count > 0
  // The window of mounted slides and sources follows cur once the snap is
  // over (feed.ts, SETTLE_MS).
  const [settledAt, setSettled] = useState(0)
  const settled = clampIndex(settledAt, count)
  useEffect(() => {
    if (settled === cur) return
    const timer = setTimeout(() => setSettled(cur), SETTLE_MS)
    return () => clearTimeout(timer)
  }, [cur, settled])

  // hls.js, where the clips need it, starts downloading with the feed.
  useEffect(() => {
    if (browserPath() === 'hls.js') void loadHls().catch(() => undefined)
  }, [])

  useLayoutEffect(() => {
    const el = box.current
    if (!el) return
    const measure = () => setHeight(el.clientHeight)
    measure()
    const ro = new ResizeObserver(measure)
    ro.observe(el)
    return () => ro.disconnect()
  }, [ready])

  // place moves the track: only its transform (a compositor property), and
  // the transition only when it changes, so a drag's pointer moves write one
  // style property each and never cause layout.
  const place = useCallback(
    (offset: number, animate: boolean) => {
      const el = track.current
      if (!el) return
      const transition = animate ? SNAP : 'none'
      if (el.style.transition !== transition) el.style.transition = transition
      el.style.transform = `translate3d(0, ${-cur * height + offset}px, 0)`
    },
    [cur, height],
  )

  // Settle on the current slide whenever it or the height changes.
  const placed = useRef(false)
  useLayoutEffect(() => {
    place(0, placed.current)
    placed.current = height > 0
  }, [place, height])

  useEffect(() => {
    if (shouldLoadMore(cur, count, !!feed.hasNextPage, feed.isFetchingNextPage)) void feed.fetchNextPage()
  }, [cur, count, feed])

  const go = useCallback(
    (to: number) => {
      // One mark of each kind at a time: the timeline does not grow per swipe.
      performance.clearMarks('prima:short-release')
      performance.mark('prima:short-release')
      setIndex(clampIndex(to, count))
    },
    [count],
  )

  const registerVideo = useCallback((slot: number, el: HTMLVideoElement | null) => {
    if (el) els.current.set(slot, el)
    else els.current.delete(slot)
  }, [])

  const onPlaying = useCallback((id: number) => {
    performance.clearMarks('prima:short-playing')
    performance.mark('prima:short-playing')
    if (counted.current.has(id)) return
    counted.current.add(id)
    // The count goes out once the snap is over: a request started while
    // the track moves is main-thread work in the middle of the animation.
    setTimeout(() => sendPlay(id), SETTLE_MS)
  }, [])

  const onMuteRefused = useCallback(() => setMuted(true), [])

  const skip = (target: EventTarget | null) => target instanceof Element && target.closest('button, a, [data-no-swipe]') != null

  const onPointerDown = (e: React.PointerEvent) => {
    if (!e.isPrimary || skip(e.target) || count === 0) return
    drag.current = { id: e.pointerId, x0: e.clientX, y0: e.clientY, axis: null, samples: [{ t: e.timeStamp, x: e.clientX, y: e.clientY }], dy: 0 }
    dragged.current = false
  }

  const onPointerMove = (e: React.PointerEvent) => {
    const d = drag.current
    if (!d || e.pointerId !== d.id) return
    const dx = e.clientX - d.x0
    const dy = e.clientY - d.y0
    if (d.axis == null) {
      d.axis = axisOf(dx, dy)
      if (d.axis === 'y') {
        dragged.current = true
        box.current?.setPointerCapture?.(e.pointerId)
      }
    }
    if (d.axis !== 'y') return
    d.dy = dy
    d.samples = pushSample(d.samples, { t: e.timeStamp, x: e.clientX, y: e.clientY })
    place(dragOffset(cur, count, dy), false)
  }

  const finish = (e: React.PointerEvent, cancelled: boolean) => {
    const d = drag.current
    if (!d || e.pointerId !== d.id) return
    drag.current = null
    if (d.axis !== 'y') return
    if (!cancelled) d.samples = pushSample(d.samples, { t: e.timeStamp, x: e.clientX, y: e.clientY })
    const to = cancelled ? cur : releaseTarget({ index: cur, count, dy: d.dy, vy: velocityOf(d.samples).vy, height })
    if (to === cur) place(0, true)
    else go(to)
  }

  // A tap: the first one turns the sound on, inside this handler so iOS
  // counts it as the gesture; later ones pause and resume.
  const onClick = (e: React.MouseEvent) => {
    if (dragged.current) {
      dragged.current = false
      return
    }
    if (skip(e.target)) return
    const v = els.current.get(cur)
    if (muted) {
      for (const el of els.current.values()) el.muted = false
      setMuted(false)
      v?.play().catch(() => undefined)
      return
    }
    if (!v) return
    if (v.paused) v.play().catch(() => undefined)
    else v.pause()
  }

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (e.key === 'ArrowDown' || e.key === 'PageDown') go(cur + 1)
    else if (e.key === 'ArrowUp' || e.key === 'PageUp') go(cur - 1)
    else return
    e.preventDefault()
  }

  const onWheel = (e: React.WheelEvent) => {
    if (Math.abs(e.deltaY) < 30 || e.timeStamp - lastWheel.current < WHEEL_GAP_MS) return
    lastWheel.current = e.timeStamp
    go(cur + (e.deltaY > 0 ? 1 : -1))
  }

  let body: ReactNode
  if (sourceState?.pending || (source && feed.isPending)) body = <StateView kind="loading" />
  else if (sourceState?.error && !source) body = <StateView kind="error" error={sourceState.error} onRetry={sourceState.retry} />
  else if (feed.isError && count === 0) body = <StateView kind="error" error={feed.error} onRetry={() => void feed.refetch()} />
  else if (count === 0) body = <StateView kind="empty" title={t('short.empty')} />

  const [from, to] = mountedAround(cur, settled, count)
  return (
    <div className={`${styles.feed} ${fill === 'tab' ? styles.tabFill : styles.pageFill}`} data-testid="short-feed" data-index={cur} data-count={count}>
      {top && <div className={`${styles.top} ${body ? styles.topSolid : ''}`}>{top}</div>}
      {body ? (
        <div className={styles.state}>{body}</div>
      ) : (
        <div
          ref={box}
          className={styles.viewport}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={(e) => finish(e, false)}
          onPointerCancel={(e) => finish(e, true)}
          onClick={onClick}
          onKeyDown={onKeyDown}
          onWheel={onWheel}
          tabIndex={0}
          role="region"
          aria-roledescription="carousel"
          aria-label={t('short.feedLabel')}
        >
          <div ref={track} className={styles.track}>
            {height > 0 &&
              videos.slice(from, to + 1).map((v, k) => (
                <Slide
                  key={v.id}
                  video={v}
                  slot={from + k}
                  role={slideRole(from + k, cur, settled)}
                  muted={muted}
                  onPlaying={onPlaying}
                  onMuteRefused={onMuteRefused}
                  registerVideo={registerVideo}
                />
              ))}
          </div>
          {muted && (
            <p className={styles.unmute} data-testid="short-unmute" aria-live="polite">
              {t('short.tapUnmute')}
            </p>
          )}
          {feed.isFetchingNextPage && cur >= count - 1 && <p className={styles.more}>{t('state.loading')}</p>}
          {feed.isFetchNextPageError && cur >= count - 1 && (
            <button type="button" className={styles.more} onClick={() => void feed.fetchNextPage()}>
              {t('list.loadFailed')}
            </button>
          )}
        </div>
      )}
    </div>
  )
}
