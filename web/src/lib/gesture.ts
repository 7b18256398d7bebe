// Pure pieces of touch handling shared by swipe surfaces (the short-video
// feed, home's sideways channel swipe): which axis a gesture belongs to and
// how fast it was moving when the finger lifted. Kept free of the DOM so
// the decisions are unit-tested.

export interface Sample {
  t: number // ms (event.timeStamp or performance.now())
  x: number
  y: number
}

// AXIS_SLOP is how far (px) a finger moves before the gesture is given to
// an axis; below it a touch is still a tap.
export const AXIS_SLOP = 10

// axisOf decides a gesture's axis from its displacement so far: null while
// it is within the slop, else 'x' when it runs within 30° of horizontal
// (|dy| < |dx|·tan 30°), else 'y'. Biased to 'y' so that a loosely
// diagonal drag scrolls the page rather than changing channel.
export function axisOf(dx: number, dy: number, slop = AXIS_SLOP): 'x' | 'y' | null {
  if (Math.hypot(dx, dy) < slop) return null
  return Math.abs(dy) < Math.abs(dx) * Math.tan(Math.PI / 6) ? 'x' : 'y'
}

// VELOCITY_WINDOW_MS: only the last moments of a drag say how it was
// released; an early fast move followed by a pause is not a flick.
export const VELOCITY_WINDOW_MS = 100

// velocityOf is the release velocity in px/ms along each axis, from the
// samples within VELOCITY_WINDOW_MS of the last one. Fewer than two
// samples, or no elapsed time, is zero.
export function velocityOf(samples: Sample[], windowMs = VELOCITY_WINDOW_MS): { vx: number; vy: number } {
  if (samples.length < 2) return { vx: 0, vy: 0 }
  const last = samples[samples.length - 1]
  let first = last
  for (let i = samples.length - 2; i >= 0; i--) {
    if (last.t - samples[i].t > windowMs) break
    first = samples[i]
  }
  const dt = last.t - first.t
  if (dt <= 0) return { vx: 0, vy: 0 }
  return { vx: (last.x - first.x) / dt, vy: (last.y - first.y) / dt }
}

// pushSample appends a sample and drops those older than the window needs,
// so a long drag keeps a short array.
export function pushSample(samples: Sample[], s: Sample, windowMs = VELOCITY_WINDOW_MS): Sample[] {
  const out = samples.filter((p) => s.t - p.t <= windowMs * 2)
  out.push(s)
  return out
}
