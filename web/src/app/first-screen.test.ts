// The take-over from the server-drawn first screen. The tests run in node,
// so the page is a small stand-in: the layer (with its picture and path),
// the app's root (whose pictures the test sets) and a MutationObserver the
// test fires as React's commits would.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { dropFirstScreen, FIRST_SCREEN_ID, watchFirstScreen } from './first-screen'

interface FakeEl {
  tagName: string
  getAttribute: (name: string) => string | null
  decode?: () => Promise<void>
}

const el = (tagName: string, attrs: Record<string, string>): FakeEl => ({
  tagName,
  getAttribute: (n) => attrs[n] ?? null,
  decode: () => Promise.resolve(),
})

let observers: (() => void)[] = []
let removed = false
let shown: FakeEl[] = []

function fakeDoc(path: string, pic: string | null, via?: string) {
  const layer = {
    dataset: { path, via },
    isConnected: true,
    querySelector: () => (pic == null ? null : el('IMG', { src: pic })),
    remove: () => {
      removed = true
      layer.isConnected = false
    },
  }
  const root = { querySelectorAll: () => shown }
  return {
    getElementById: (id: string) => (id === FIRST_SCREEN_ID ? layer : id === 'root' ? root : null),
    createElement: () => ({ src: '', decode: () => Promise.resolve() }),
    body: root,
  } as unknown as Document
}

// A commit of the app: the root now shows these elements.
const commit = (...els: FakeEl[]) => {
  shown = els
  for (const o of observers) o()
}
const frames = () => new Promise((r) => setTimeout(r, 60))

beforeEach(() => {
  observers = []
  removed = false
  shown = []
  vi.stubGlobal(
    'MutationObserver',
    class {
      private cb: () => void
      constructor(cb: () => void) {
        this.cb = cb
      }
      observe() {
        observers.push(this.cb)
      }
      disconnect() {
        observers = observers.filter((o) => o !== this.cb)
      }
    },
  )
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('watchFirstScreen', () => {
  it('does nothing without a layer', () => {
    const doc = { getElementById: () => null } as unknown as Document
    expect(watchFirstScreen(doc, () => '/home')).toBeUndefined()
  })

  it('keeps the layer until the app shows the same picture, then removes it', async () => {
    watchFirstScreen(fakeDoc('/home', '/media/ads/b1.jpg'), () => '/home')
    commit(el('DIV', {}), el('IMG', { src: '/media/covers/x.jpg' }))
    await frames()
    expect(removed).toBe(false)
    commit(el('IMG', { src: '/media/covers/x.jpg' }), el('IMG', { src: '/media/ads/b1.jpg' }))
    await vi.waitFor(() => expect(removed).toBe(true))
  })

  it('takes a video poster as the same picture', async () => {
    watchFirstScreen(fakeDoc('/detail/7', '/media/covers/b.jpg'), () => '/detail/7')
    commit(el('VIDEO', { src: '/media/covers/b.jpg' }))
    await frames()
    expect(removed).toBe(false)
    commit(el('VIDEO', { poster: '/media/covers/b.jpg' }))
    await vi.waitFor(() => expect(removed).toBe(true))
  })

  it('goes at once when the app is on another path (splash, for a visitor without a session)', () => {
    let at = '/home'
    watchFirstScreen(fakeDoc('/home', '/media/ads/b1.jpg'), () => at)
    at = '/'
    commit(el('MAIN', {}))
    expect(removed).toBe(true)
  })

  it('on splash\'s path, waits for the app to reach home and takes over there', async () => {
    let at = '/'
    watchFirstScreen(fakeDoc('/home', '/media/ads/b1.jpg', '/'), () => at)
    commit(el('MAIN', {}))
    expect(removed).toBe(false)
    at = '/home'
    commit(el('IMG', { src: '/media/ads/b1.jpg' }))
    await vi.waitFor(() => expect(removed).toBe(true))
  })

  it('goes when a page drops it (splash showing a failed sign-in)', () => {
    const doc = fakeDoc('/home', '/media/ads/b1.jpg', '/')
    watchFirstScreen(doc, () => '/')
    dropFirstScreen(doc)
    expect(removed).toBe(true)
    commit(el('MAIN', {}))
    expect(observers).toEqual([])
  })

  it('goes at once when it has no picture to wait for', () => {
    watchFirstScreen(fakeDoc('/home', null), () => '/home')
    commit()
    expect(removed).toBe(true)
  })

  it('never stays longer than its limit', () => {
    vi.useFakeTimers()
    watchFirstScreen(fakeDoc('/home', '/media/ads/b1.jpg'), () => '/home', 4000)
    vi.advanceTimersByTime(3999)
    expect(removed).toBe(false)
    vi.advanceTimersByTime(1)
    expect(removed).toBe(true)
  })
})
