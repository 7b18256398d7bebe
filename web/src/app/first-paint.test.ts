// When the page's entry starts the app: at once without a first screen,
// else once its picture is in and a frame has been painted (at most the
// limit), putting back the preloads the server held back. The page is a
// small stand-in (the tests run in node).
import { afterEach, describe, expect, it, vi } from 'vitest'
import { firstScreenPainted, LATER_BATCH } from './first-paint'

function fakeDoc({ layer = true, complete = false } = {}) {
  const listeners: Record<string, () => void> = {}
  const img = { complete, addEventListener: (type: string, fn: () => void) => (listeners[type] = fn) }
  const moved: unknown[][] = [] // each call of head.append: one batch
  const links = Array.from({ length: LATER_BATCH * 2 + 1 }, (_, i) => ({ link: i }))
  const template = { content: { children: links }, remove: vi.fn() }
  const doc = {
    getElementById: (id: string) => (id === 'prima-first' ? (layer ? { querySelector: () => img } : null) : id === 'prima-later' ? template : null),
    head: { append: (...xs: unknown[]) => moved.push(xs) },
  } as unknown as Document
  return { doc, listeners, moved, template, links }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('firstScreenPainted', () => {
  it('starts the app at once on a page without a first screen', async () => {
    const { doc, moved, links } = fakeDoc({ layer: false })
    await firstScreenPainted(doc)
    expect(moved.flat()).toEqual(links)
  })

  it('puts the preloads back in order, a batch per task, and starts the app in the task after', async () => {
    vi.useFakeTimers()
    const { doc, moved, links, template } = fakeDoc({ layer: false })
    let started = false
    void firstScreenPainted(doc).then(() => (started = true))
    expect(template.remove).toHaveBeenCalled()
    expect(moved).toEqual([links.slice(0, LATER_BATCH)])
    await vi.advanceTimersToNextTimerAsync()
    expect(moved).toEqual([links.slice(0, LATER_BATCH), links.slice(LATER_BATCH, 2 * LATER_BATCH)])
    await vi.advanceTimersToNextTimerAsync()
    expect(moved.flat()).toEqual(links)
    expect(started).toBe(false)
    await vi.advanceTimersToNextTimerAsync()
    expect(started).toBe(true)
  })

  it('waits for the picture, then a painted frame, then puts the preloads back', async () => {
    vi.useFakeTimers()
    const { doc, listeners, moved, template, links } = fakeDoc()
    let started = false
    void firstScreenPainted(doc, 1000).then(() => (started = true))
    await vi.advanceTimersByTimeAsync(500)
    expect(started).toBe(false)
    expect(moved).toEqual([])
    listeners.load()
    await vi.advanceTimersByTimeAsync(100)
    expect(started).toBe(true)
    expect(moved.flat()).toEqual(links)
    expect(template.remove).toHaveBeenCalled()
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
