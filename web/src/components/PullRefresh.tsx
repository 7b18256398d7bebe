// Pull to refresh: pulled down from the top of the page, the content
// follows the finger with resistance; released past the threshold it rests
// under a head that says "refreshing", runs onRefresh, says "updated" and
// goes back. Our own rather than antd-mobile's PullToRefresh, whose gesture
// and spring libraries were 25 kB gzip of home's first JavaScript and
// which animated the head's height (a layout per frame): here a drag
// writes only transforms (the compositor's work) and renders nothing but a
// status change. The rules are in lib/pull.ts.
//
// At rest the content carries no transform, so nothing inside it loses
// position: fixed or sticky. The touchmove listener is not passive: a pull
// at the top must stop the browser's own overscroll, and it calls
// preventDefault only for a downward pull that began at the top.
import { useEffect, useRef, useState, type ReactNode } from 'react'
import { t } from '@/i18n'
import { axisOf } from '@/lib/gesture'
import { PULL_COMPLETE_MS, PULL_HEAD, PULL_OFFLINE_MS, pullOffset, pullStatus, type PullStatus } from '@/lib/pull'
import styles from './PullRefresh.module.css'

const SNAP = 'transform 0.3s cubic-bezier(0.25, 0.8, 0.25, 1)'

const TEXT = {
  pulling: 'ptr.pulling',
  canRelease: 'ptr.release',
  refreshing: 'ptr.refreshing',
  complete: 'ptr.complete',
  offline: 'ptr.offline',
} as const

// atTop: the page and every box around the finger (inside the pull's root
// or around it: a page may scroll in a box of its own) are scrolled to
// their tops, so a pull down is not a scroll.
function atTop(target: EventTarget | null): boolean {
  if ((document.scrollingElement?.scrollTop ?? window.scrollY) > 0) return false
  for (let el = target instanceof Element ? target : null; el; el = el.parentElement) {
    if (el.scrollTop > 0) return false
  }
  return true
}

export function PullRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  const root = useRef<HTMLDivElement>(null)
  const head = useRef<HTMLDivElement>(null)
  const body = useRef<HTMLDivElement>(null)
  const refresh = useRef(onRefresh)
  refresh.current = onRefresh
  const [status, setStatus] = useState<PullStatus>('idle')

  useEffect(() => {
    const el = root.current
    const h = head.current
    const b = body.current
    if (!el || !h || !b) return
    let start: { x: number; y: number } | null = null
    let pulling = false
    let busy = false
    let offset = 0
    let unmounted = false

    // move puts the content offset px down (and the head above it),
    // animated or following the finger; 0 leaves no transform behind.
    const move = (px: number, animate: boolean) => {
      offset = px
      const transition = animate ? SNAP : 'none'
      b.style.transition = transition
      h.style.transition = `${transition}, opacity 0.2s`
      b.style.transform = px > 0 ? `translate3d(0, ${px}px, 0)` : ''
      h.style.transform = `translate3d(0, ${px - PULL_HEAD}px, 0)`
      h.style.opacity = px > 0 ? String(Math.min(1, px / PULL_HEAD)) : '0'
    }
    const settle = () => {
      move(0, true)
      setStatus('idle')
    }

    const onStart = (e: TouchEvent) => {
      start = null
      pulling = false
      if (busy || e.touches.length !== 1 || !atTop(e.target)) return
      start = { x: e.touches[0].clientX, y: e.touches[0].clientY }
    }
    const onMove = (e: TouchEvent) => {
      if (!start) return
      const dx = e.touches[0].clientX - start.x
      const dy = e.touches[0].clientY - start.y
      if (!pulling) {
        const axis = axisOf(dx, dy)
        if (axis === 'x' || dy < 0 || (axis === 'y' && !atTop(e.target))) {
          start = null // a sideways swipe or a scroll: not ours
          return
        }
        // Within the slop a move that is mostly downward is held back
        // already, or iOS would start its own overscroll and stop letting
        // us cancel; a mostly sideways one is left alone, or a row that
        // scrolls sideways (the channel tabs) would not scroll at all.
        if (axis == null) {
          if (e.cancelable && dy > Math.abs(dx)) e.preventDefault()
          return
        }
        pulling = true
      }
      if (e.cancelable) e.preventDefault()
      const px = pullOffset(dy)
      move(px, false)
      setStatus(px > 0 ? pullStatus(px) : 'idle')
    }
    const onEnd = () => {
      if (!start) return
      start = null
      if (!pulling) return
      pulling = false
      if (pullStatus(offset) !== 'canRelease') return settle()
      busy = true
      move(PULL_HEAD, true)
      // Offline, the page's refresh is not even asked for: it would start
      // its lists again from nothing and wait for a network there is not.
      const offlineNow = navigator.onLine === false
      setStatus(offlineNow ? 'offline' : 'refreshing')
      ;(offlineNow ? Promise.resolve() : refresh.current())
        .then(
          () => {
            if (unmounted) return
            // A page's refresh resolves offline too (its queries keep
            // their data and show their own state): say so rather than
            // "updated".
            const offline = navigator.onLine === false
            setStatus(offline ? 'offline' : 'complete')
            return new Promise((r) => setTimeout(r, offline ? PULL_OFFLINE_MS : PULL_COMPLETE_MS))
          },
          () => undefined, // the page shows its own error state
        )
        .finally(() => {
          busy = false
          if (!unmounted) settle()
        })
    }

    el.addEventListener('touchstart', onStart, { passive: true })
    el.addEventListener('touchmove', onMove, { passive: false })
    el.addEventListener('touchend', onEnd)
    el.addEventListener('touchcancel', onEnd)
    return () => {
      unmounted = true
      el.removeEventListener('touchstart', onStart)
      el.removeEventListener('touchmove', onMove)
      el.removeEventListener('touchend', onEnd)
      el.removeEventListener('touchcancel', onEnd)
    }
  }, [])

  const text = status === 'idle' ? '' : t(TEXT[status])
  return (
    <div ref={root} className={styles.root} data-testid="pull-refresh" data-status={status}>
      <div ref={head} className={styles.head} role="status">
        {status !== 'idle' && (
          <>
            <span className={`${styles.mark} ${styles[status]}`} aria-hidden="true" />
            {text}
          </>
        )}
      </div>
      <div ref={body}>{children}</div>
    </div>
  )
}
