// The short-video feed's decisions, as pure functions: where a swipe
// lands, which slides are mounted, which of them get a video source, when
// the next page loads, and which playback path a browser takes. The page
// only applies them to the DOM.

// A release moves to the neighbour when the drag went past this share of
// the screen's height, or was flicked faster than FLICK_VELOCITY (px/ms)
// in the same direction after at least FLICK_MIN_PX.
export const DISTANCE_SHARE = 0.2
export const FLICK_VELOCITY = 0.35
export const FLICK_MIN_PX = 12

// MOUNT_RADIUS slides either side of the current one stay mounted (5 in
// all), SOURCE_RADIUS of them have a video source (3 in all).
export const MOUNT_RADIUS = 2
export const SOURCE_RADIUS = 1
// LOAD_AHEAD: the next page is asked for when the current slide is this
// close to the end of what is loaded.
export const LOAD_AHEAD = 3

export function clampIndex(i: number, count: number): number {
  if (count <= 0) return 0
  return Math.min(Math.max(0, i), count - 1)
}

export interface Release {
  index: number
  count: number
  dy: number // finger displacement since the start, px (negative = up)
  vy: number // release velocity, px/ms (negative = up)
  height: number // the slide's height, px
}

// releaseTarget is the slide a drag settles on: the next one for a drag
// up (negative dy), the previous for a drag down, else where it started;
// never past either end, and never more than one slide per swipe.
export function releaseTarget({ index, count, dy, vy, height }: Release): number {
  const far = height > 0 && Math.abs(dy) > height * DISTANCE_SHARE
  const flick = Math.abs(dy) >= FLICK_MIN_PX && Math.abs(vy) > FLICK_VELOCITY && Math.sign(vy) === Math.sign(dy)
  if (!far && !flick) return clampIndex(index, count)
  return clampIndex(index + (dy < 0 ? 1 : -1), count)
}

// dragOffset is the track's extra offset while dragging: the finger's
// displacement, with resistance (a third) past the first and last slide.
export function dragOffset(index: number, count: number, dy: number): number {
  const pastStart = index <= 0 && dy > 0
  const pastEnd = index >= count - 1 && dy < 0
  return pastStart || pastEnd ? dy / 3 : dy
}

// mountedRange is the [from, to] of mounted slides (inclusive): up to
// 2·MOUNT_RADIUS+1 around the current one, shifted to keep 5 at the ends.
export function mountedRange(index: number, count: number, radius = MOUNT_RADIUS): [number, number] {
  if (count <= 0) return [0, -1]
  const size = Math.min(count, 2 * radius + 1)
  let from = clampIndex(index, count) - radius
  from = Math.max(0, Math.min(from, count - size))
  return [from, from + size - 1]
}

// SourceRole says what a mounted slide's <video> holds: the current clip
// plays; the next one is preloaded in full (preload="auto") so the swipe to
// it starts at once; the previous one keeps its source with metadata only
// (a swipe back is rarer); the rest have no source at all.
export type SourceRole = 'play' | 'preload' | 'keep' | 'none'

export function sourceRole(i: number, index: number, radius = SOURCE_RADIUS): SourceRole {
  if (i === index) return 'play'
  if (i === index + 1) return 'preload'
  if (Math.abs(i - index) <= radius) return 'keep'
  return 'none'
}

export function preloadAttr(role: SourceRole): 'auto' | 'metadata' | 'none' {
  return role === 'play' || role === 'preload' ? 'auto' : role === 'keep' ? 'metadata' : 'none'
}

export function shouldLoadMore(index: number, count: number, hasMore: boolean, busy: boolean): boolean {
  return hasMore && !busy && count > 0 && index >= count - LOAD_AHEAD
}

// playbackPath picks how an HLS playlist plays: natively where the browser
// plays HLS itself (Safari on the iPhone, iPad and Mac, Chromium on
// Android and, since 2025, on the desktop), as the detail player does;
// else through Media Source Extensions with hls.js (Firefox, WebKitGTK);
// else not at all. hls.js first was tried: its ~100 KB and its work on the
// main thread as the feed opened were most of the tab's Total Blocking
// Time, for buffer control the native players do well enough for clips.
export function playbackPath(env: { mse: boolean; nativeHls: boolean }): 'hls.js' | 'native' | 'none' {
  if (env.nativeHls) return 'native'
  if (env.mse) return 'hls.js'
  return 'none'
}

// sourceModule reads /sourceshortvideo's query: `id` (or `subModuleID`)
// names one sub-module, `moduleID` a whole short-video module. Anything
// that is not a positive integer is ignored; null when neither is usable.
export function sourceOfQuery(q: URLSearchParams): { subModuleID?: number; moduleID?: number; title?: string } | null {
  const num = (v: string | null) => {
    if (v == null || !/^\d{1,15}$/.test(v)) return undefined
    const n = Number(v)
    return n > 0 ? n : undefined
  }
  const sub = num(q.get('id')) ?? num(q.get('subModuleID'))
  const title = q.get('title')?.trim().slice(0, 40) || undefined
  if (sub) return { subModuleID: sub, title }
  const mod = num(q.get('moduleID'))
  if (mod) return { moduleID: mod, title }
  return null
}

// SETTLE_MS: how long after a release the rest of the window follows the
// current slide. The snap animation (260 ms) runs first; mounting the slide
// that enters the window, attaching the next clip's source and releasing
// the one that leaves are main-thread work that would cost frames if done
// while the track moves. Only the switch of which clip plays is immediate.
export const SETTLE_MS = 320

// slideRole is a mounted slide's role while the window lags behind the
// current slide (settled is where it last settled): the current one plays
// at once, the others keep their roles around the settled index, except
// that the one which played is only kept (paused).
export function slideRole(i: number, cur: number, settled: number): SourceRole {
  if (i === cur) return 'play'
  const r = sourceRole(i, settled)
  return r === 'play' ? 'keep' : r
}

// mountedAround is mountedRange around the settled index, stretched to
// hold the current slide should it be outside (a jump of more than one).
export function mountedAround(cur: number, settled: number, count: number): [number, number] {
  const [from, to] = mountedRange(settled, count)
  if (to < from) return [from, to]
  return [Math.min(from, cur), Math.max(to, cur)]
}
