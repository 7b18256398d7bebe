import { describe, expect, it } from 'vitest'
import {
  clampPan,
  clampScale,
  doubleTapScale,
  edgeResist,
  fitSize,
  isDoubleTap,
  panLimit,
  pinchScale,
  swipeTarget,
  zoomAbout,
} from './gestures'

const view = { w: 400, h: 800 }

describe('gestures', () => {
  it('clamps the scale to 1..4', () => {
    expect(clampScale(0.3)).toBe(1)
    expect(clampScale(2)).toBe(2)
    expect(clampScale(9)).toBe(4)
    expect(clampScale(NaN)).toBe(1)
  })

  it('fits a picture inside the view', () => {
    expect(fitSize({ w: 1600, h: 1200 }, view)).toEqual({ w: 400, h: 300 })
    expect(fitSize({ w: 100, h: 400 }, view)).toEqual({ w: 200, h: 800 })
  })

  it('allows pan only as far as the zoomed picture overflows', () => {
    const fitted = { w: 400, h: 300 }
    expect(panLimit(fitted, view, 1)).toEqual({ x: 0, y: 0 })
    expect(panLimit(fitted, view, 2)).toEqual({ x: 200, y: 0 })
    expect(panLimit(fitted, view, 4)).toEqual({ x: 600, y: 200 })
    expect(clampPan({ x: 900, y: -900 }, { x: 600, y: 200 })).toEqual({ x: 600, y: -200 })
    expect(clampPan({ x: 50, y: 50 }, { x: 0, y: 0 })).toEqual({ x: 0, y: 0 })
  })

  it('zooms about a point and resets the pan at scale 1', () => {
    const fitted = { w: 400, h: 300 }
    const z = zoomAbout({ x: 0, y: 0 }, 1, 2, { x: 100, y: 0 }, fitted, view)
    expect(z.scale).toBe(2)
    // The point 100 px right of centre stays under the finger: pan -100.
    expect(z.pan).toEqual({ x: -100, y: 0 })
    expect(zoomAbout(z.pan, 2, 0.5, { x: 0, y: 0 }, fitted, view)).toEqual({ scale: 1, pan: { x: 0, y: 0 } })
    // Far off the edge, the pan stops at the limit.
    expect(zoomAbout({ x: 0, y: 0 }, 1, 4, { x: -1000, y: 0 }, fitted, view).pan.x).toBe(600)
  })

  it('scales a pinch by the fingers distance, within limits', () => {
    expect(pinchScale(1, 100, 200)).toBe(2)
    expect(pinchScale(2, 100, 50)).toBe(1)
    expect(pinchScale(3, 100, 400)).toBe(4)
    expect(pinchScale(2, 0, 50)).toBe(2)
  })

  it('turns the page on a long drag or a flick, never past the ends', () => {
    expect(swipeTarget(0, 5, -150, 0, 400)).toBe(1)
    expect(swipeTarget(2, 5, 150, 0, 400)).toBe(1)
    expect(swipeTarget(2, 5, -60, 0.1, 400)).toBe(2) // short and slow: back
    expect(swipeTarget(2, 5, -40, -0.8, 400)).toBe(3) // a flick
    expect(swipeTarget(2, 5, -5, -2, 400)).toBe(2) // too short to be a flick
    expect(swipeTarget(2, 5, -40, 0.8, 400)).toBe(2) // released moving back
    expect(swipeTarget(4, 5, -300, -1, 400)).toBe(4)
    expect(swipeTarget(0, 5, 300, 1, 400)).toBe(0)
    expect(edgeResist(0, 5, 90)).toBe(30)
    expect(edgeResist(1, 5, 90)).toBe(90)
    expect(edgeResist(4, 5, -90)).toBe(-30)
  })

  it('recognises a double tap and toggles the zoom', () => {
    expect(isDoubleTap(null, { t: 0, x: 0, y: 0 })).toBe(false)
    expect(isDoubleTap({ t: 0, x: 10, y: 10 }, { t: 200, x: 20, y: 15 })).toBe(true)
    expect(isDoubleTap({ t: 0, x: 10, y: 10 }, { t: 400, x: 10, y: 10 })).toBe(false)
    expect(isDoubleTap({ t: 0, x: 10, y: 10 }, { t: 100, x: 90, y: 10 })).toBe(false)
    expect(doubleTapScale(1)).toBe(2.5)
    expect(doubleTapScale(3)).toBe(1)
  })
})
