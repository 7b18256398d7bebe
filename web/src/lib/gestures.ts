// The viewer's gesture maths, kept pure so it is tested without a browser:
// zoom limits, how far a zoomed picture may pan, zooming about a point, and
// when a horizontal drag turns the page.

export const MIN_SCALE = 1
export const MAX_SCALE = 4
export const DOUBLE_TAP_SCALE = 2.5
// A drag past this share of the width, or a flick faster than this, turns
// the page; anything less springs back.
export const SWIPE_DISTANCE = 0.25
export const SWIPE_VELOCITY = 0.4 // px per ms
export const SWIPE_MIN_FLICK = 12 // px: a flick must move at least this far
export const DOUBLE_TAP_MS = 300
export const DOUBLE_TAP_SLOP = 30 // px between the two taps
export const TAP_SLOP = 8 // px a tap may move and still be a tap

export interface Size {
  w: number
  h: number
}
export interface Point {
  x: number
  y: number
}

export function clampScale(s: number): number {
  if (!Number.isFinite(s)) return MIN_SCALE
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, s))
}

// fitSize is the picture's size at scale 1: contained in the view, never
// enlarged past the view (a small picture keeps its aspect and fills the width
// or height, whichever binds first).
export function fitSize(content: Size, view: Size): Size {
  if (content.w <= 0 || content.h <= 0 || view.w <= 0 || view.h <= 0) return { w: view.w, h: view.h }
  const k = Math.min(view.w / content.w, view.h / content.h)
  return { w: content.w * k, h: content.h * k }
}

// panLimit is how far the picture's centre may move from the view's centre
// at a scale: half the overflow on each axis, 0 where the picture fits.
export function panLimit(fitted: Size, view: Size, scale: number): Point {
  return {
    x: Math.max(0, (fitted.w * scale - view.w) / 2),
    y: Math.max(0, (fitted.h * scale - view.h) / 2),
  }
}

export function clampPan(p: Point, limit: Point): Point {
  const c = (v: number, m: number) => (m === 0 ? 0 : Math.min(m, Math.max(-m, v)))
  return { x: c(p.x, limit.x), y: c(p.y, limit.y) }
}

// zoomAbout changes the scale keeping the picture point under `focus` (view
// coordinates relative to the view's centre) where it is, then clamps the
// pan to the new limits.
export function zoomAbout(
  pan: Point,
  scale: number,
  nextScale: number,
  focus: Point,
  fitted: Size,
  view: Size,
): { pan: Point; scale: number } {
  const s = clampScale(nextScale)
  const k = s / scale
  const p = { x: focus.x - (focus.x - pan.x) * k, y: focus.y - (focus.y - pan.y) * k }
  return { scale: s, pan: s === MIN_SCALE ? { x: 0, y: 0 } : clampPan(p, panLimit(fitted, view, s)) }
}

// pinchScale is the scale a two-finger pinch gives: the scale at its start
// times how much the fingers' distance grew.
export function pinchScale(startScale: number, startDistance: number, distance: number): number {
  if (startDistance <= 0) return clampScale(startScale)
  return clampScale(startScale * (distance / startDistance))
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y)
}

export function midpoint(a: Point, b: Point): Point {
  return { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }
}

// swipeTarget decides where a horizontal drag at scale 1 lands: dx the drag
// (negative: towards the next picture), vx its velocity in px/ms at release.
// It never leaves 0..count-1.
export function swipeTarget(index: number, count: number, dx: number, vx: number, width: number): number {
  let step = 0
  if (width > 0 && Math.abs(dx) > width * SWIPE_DISTANCE) step = dx < 0 ? 1 : -1
  else if (Math.abs(vx) > SWIPE_VELOCITY && Math.abs(dx) > SWIPE_MIN_FLICK && Math.sign(vx) === Math.sign(dx)) step = dx < 0 ? 1 : -1
  return Math.min(count - 1, Math.max(0, index + step))
}

// edgeResist damps a drag past the first or last picture, so the page gives a
// little and springs back instead of showing an empty slot.
export function edgeResist(index: number, count: number, dx: number): number {
  const atStart = index === 0 && dx > 0
  const atEnd = index === count - 1 && dx < 0
  return atStart || atEnd ? dx / 3 : dx
}

export interface Tap {
  t: number
  x: number
  y: number
}

// isDoubleTap: a second tap soon enough after and near enough to the first.
export function isDoubleTap(prev: Tap | null, next: Tap): boolean {
  if (!prev) return false
  return next.t - prev.t <= DOUBLE_TAP_MS && Math.hypot(next.x - prev.x, next.y - prev.y) <= DOUBLE_TAP_SLOP
}

// doubleTapScale toggles: zoomed pictures go back to 1, others zoom in.
export function doubleTapScale(scale: number): number {
  return scale > MIN_SCALE + 0.01 ? MIN_SCALE : DOUBLE_TAP_SCALE
}
