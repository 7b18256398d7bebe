// When the page's entry starts the app: at once without a first screen,
// else once its picture is in and a frame has been painted (at most the
// limit), putting back the preloads the server held back. The page is a
// small stand-in (the tests run in node).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { firstScreenPainted } from './first-paint'

function fakeDoc({ layer = true, complete = false } = {}) {
  const listeners: Record<string, () => void> = {}
  const img = { complete, addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) }
  const moved: unknown[] = []
  const template = { content: { links: 2 }, remove: vi.fn() }
  const doc = {
    getElementById: (id: string) => (id === 'prima-first' ? (layer ? { querySelector: () => img } : null) : id === 'prima-later' ? template : null),
    head: { append: (x: unknown) => moved.push(x) },
  } as unknown as Document
  return { doc, listeners, moved, template }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('firstScreenPainted', () => {
  it('starts the app at once on a page without a first screen', async () => {
    const { doc, moved } = fakeDoc({ layer: false })
    await firstScreenPainted(doc)
    expect(moved).toEqual([{ links: 2 }])
  })

  it('waits for the picture, then a painted frame, then puts the preloads back', async () => {
    vi.useFakeTimers()
    const { doc, listeners, moved, template } = fakeDoc()
    let started = false
    void firstScreenPainted(doc, 1000).then(() => (started = true))
    await vi.advanceTimersByTimeAsync(500)
    expect(started).toBe(false)
    expect(moved).toEqual([])
    listeners.load()
    // The preloads go back after the painted frame; the app starts in the
    // task after that.
    await vi.advanceTimersToNextTimerAsync()
    expect(moved).toEqual([{ links: 2 }])
    expect(template.remove).toHaveBeenCalled()
    expect(started).toBe(false)
    await vi.advanceTimersToNextTimerAsync()
    expect(started).toBe(true)
  })

  it('a picture already in, or one that failed, does not hold the app', async () => {
    vi.useFakeTimers()
    const done = fakeDoc({ complete: true })
    let started = false
    void firstScreenPainted(done.doc).then(() => (started = true))
    await vi.advanceTimersByTimeAsync(100)
    expect(started).toBe(true)

    const failed = fakeDoc()
    started = false
    void firstScreenPainted(failed.doc).then(() => (started = true))
    failed.listeners.error()
    await vi.advanceTimersByTimeAsync(100)
    expect(started).toBe(true)
  })

  it('never waits longer than its limit', async () => {
    vi.useFakeTimers()
    const { doc } = fakeDoc()
    let started = false
    void firstScreenPainted(doc, 1000).then(() => (started = true))
    await vi.advanceTimersByTimeAsync(999)
    expect(started).toBe(false)
    await vi.advanceTimersByTimeAsync(101)
    expect(started).toBe(true)
  })
})
