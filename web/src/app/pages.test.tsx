import { describe, expect, it } from 'vitest'
import { Suspense, type ReactElement } from 'react'
import { renderToPipeableStream } from 'react-dom/server'
import { Writable } from 'node:stream'
import { lazyOf, retryPages, RoutePage, watchStylesheets, type PageLoader } from './pages'

// render streams el to HTML once everything has loaded or failed; errors
// are the failures React reported (a lazy that rejected).
function render(el: ReactElement): Promise<{ html: string; errors: unknown[] }> {
  return new Promise((resolve) => {
    const errors: unknown[] = []
    let html = ''
    const { pipe } = renderToPipeableStream(el, {
      onError: (e) => void errors.push(e),
      onShellError: (e) => resolve({ html, errors: [...errors, e] }),
      onAllReady: () => {
        const out = new Writable({
          write(chunk, _enc, cb) {
            html += String(chunk)
            cb()
          },
        })
        out.on('finish', () => resolve({ html, errors }))
        pipe(out)
      },
    })
  })
}

const page = (load: PageLoader) => (
  <Suspense fallback={<i>loading</i>}>
    <RoutePage load={load} />
  </Suspense>
)

describe('route pages', () => {
  it('loads a page whose code failed again, in place, after retryPages', async () => {
    let calls = 0
    const load: PageLoader = () => {
      calls++
      if (calls === 1) return Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/P.js'))
      return Promise.resolve({ default: () => <p>the page</p> })
    }
    const first = await render(page(load))
    expect(first.errors).toHaveLength(1)
    expect(first.html).not.toContain('the page')

    // React.lazy keeps its failure: without retryPages nothing loads again.
    const stuck = await render(page(load))
    expect(calls).toBe(1)
    expect(stuck.errors).toHaveLength(1)

    retryPages()
    const again = await render(page(load))
    expect(calls).toBe(2)
    expect(again.errors).toEqual([])
    expect(again.html).toContain('the page')
  })

  it('keeps a page that loaded: one chunk and one component type per module', async () => {
    let calls = 0
    const load: PageLoader = () => {
      calls++
      return Promise.resolve({ default: () => <p>ok</p> })
    }
    const before = lazyOf(load)
    await render(page(load))
    retryPages()
    expect(lazyOf(load)).toBe(before)
    await render(page(load))
    expect(calls).toBe(1)
  })

  // A stand-in for <link rel=stylesheet>: its clone is what retryPages
  // puts in its place, and fire() plays the clone's load or error.
  interface FakeLink {
    tagName: 'LINK'
    rel: 'stylesheet'
    href: string
    isConnected: boolean
    replacedBy?: FakeLink
    fire: (type: 'load' | 'error') => void
    addEventListener: (type: string, fn: () => void) => void
    cloneNode: () => FakeLink
    replaceWith: (n: FakeLink) => void
  }
  function fakeLink(href: string): FakeLink {
    const handlers: Record<string, () => void> = {}
    const l: FakeLink = {
      tagName: 'LINK',
      rel: 'stylesheet',
      href,
      isConnected: true,
      fire: (type) => handlers[type]?.(),
      addEventListener: (type, fn) => void (handlers[type] = fn),
      cloneNode: () => fakeLink(href),
      replaceWith: (n) => void (l.replacedBy = n),
    }
    return l
  }
  // The document's capture listeners, as watchStylesheets installs them.
  const doc: Record<string, (e: Partial<Event>) => void> = {}
  watchStylesheets({ addEventListener: (type: string, fn: unknown) => void (doc[type] = fn as (e: Partial<Event>) => void) } as Pick<Document, 'addEventListener'>)
  const linkEvent = (type: 'load' | 'error', l: FakeLink) => doc[type]({ type, target: l as unknown as EventTarget })

  it('links again the app stylesheets that failed, and the page waits for them', async () => {
    const failed = fakeLink('http://h/assets/Picture-a.css')
    const loaded = fakeLink('http://h/assets/Home-b.css')
    const foreign = fakeLink('http://h/other/theme.css')
    linkEvent('error', failed)
    linkEvent('load', loaded)
    linkEvent('error', foreign)

    let calls = 0
    const load: PageLoader = () => {
      calls++
      if (calls === 1) return Promise.reject(new Error('Unable to preload CSS for http://h/assets/Picture-a.css'))
      return Promise.resolve({ default: () => <p>styled</p> })
    }
    expect((await render(page(load))).errors).toHaveLength(1)
    retryPages()
    // Only the app's stylesheet that failed is linked again.
    expect([failed, loaded, foreign].map((l) => l.replacedBy != null)).toEqual([true, false, false])
    // The page's code is asked for only once that stylesheet has loaded.
    const rendering = render(page(load))
    await new Promise((r) => setTimeout(r, 20))
    expect(calls).toBe(1)
    failed.replacedBy!.fire('load')
    const again = await rendering
    expect(calls).toBe(2)
    expect(again.html).toContain('styled')
  })

  it('fails the page again when its stylesheet fails again, and the next retry tries once more', async () => {
    const sheet = fakeLink('http://h/assets/Topic-c.css')
    linkEvent('error', sheet)
    let calls = 0
    const load: PageLoader = () => {
      calls++
      return calls === 1 ? Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/Topic.js')) : Promise.resolve({ default: () => <p>topic</p> })
    }
    await render(page(load))
    retryPages()
    const second = render(page(load))
    await new Promise((r) => setTimeout(r, 10))
    const clone = sheet.replacedBy!
    clone.fire('error')
    linkEvent('error', clone)
    expect((await second).errors).toHaveLength(1)
    expect(calls).toBe(1) // still offline: the code was not even asked for
    retryPages()
    const third = render(page(load))
    await new Promise((r) => setTimeout(r, 10))
    clone.replacedBy!.fire('load')
    expect((await third).html).toContain('topic')
    expect(calls).toBe(2)
  })
})
