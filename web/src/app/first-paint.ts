// When may the app start? The page's entry (main.tsx) asks this before it
// imports the app. A page with a first screen drawn by the server
// (#prima-first, internal/app/firstscreen.go) shows its largest picture
// before any script: the app waits until that picture is in (loaded, or
// failed) and a frame has been painted with it, at most
// FIRST_PAINT_MAX_MS, so the app's ~130 KB of scripts neither compete with
// the picture on a slow link nor hold the main thread while it waits to be
// painted. Any other page starts the app at once.
//
// The server also holds back the page's preloads of the app's scripts on
// such a page (a <template id="prima-later">, internal/app/homeboot.go
// splice): they are put back here, just before the app is imported, so
// its chunks come in parallel as they would have.
//
// This module belongs to the entry alone (vite.config.ts keeps it out of
// the app's chunks): it must stay small and import nothing.
export const FIRST_PAINT_MAX_MS = 1000

// afterPaint calls fn once the next frame has been painted: a
// requestAnimationFrame callback runs just before the paint, a task it
// queues runs after. A hidden page paints no frames: it goes on at once,
// or as soon as it is hidden.
function afterPaint(doc: Document, fn: () => void): void {
  let called = false
  const once = () => {
    if (called) return
    called = true
    doc.removeEventListener?.('visibilitychange', onHide)
    fn()
  }
  const onHide = () => {
    if (doc.visibilityState === 'hidden') once()
  }
  if (typeof requestAnimationFrame !== 'function' || doc.visibilityState === 'hidden') {
    setTimeout(once, 0)
    return
  }
  doc.addEventListener?.('visibilitychange', onHide)
  requestAnimationFrame(() => setTimeout(once, 0))
}

// putBackLater moves the held-back preloads into the head, where they
// start fetching. (Put back a few per task instead, they made more long
// tasks, not shorter ones: most of a link's cost on a busy phone is
// waiting for the browser, which batches do not shorten.)
function putBackLater(doc: Document): void {
  const t = doc.getElementById('prima-later') as HTMLTemplateElement | null
  if (!t) return
  if (t.content) doc.head.append(t.content)
  t.remove()
}

export function firstScreenPainted(doc: Document = document, maxMs = FIRST_PAINT_MAX_MS): Promise<void> {
  const img = doc.getElementById('prima-first')?.querySelector('img')
  if (!img) {
    putBackLater(doc)
    return Promise.resolve()
  }
  return new Promise((resolve) => {
    let done = false
    const finish = () => {
      if (done) return
      done = true
      clearTimeout(timer)
      // The preloads go in, then the app is imported in a task of its
      // own: each is work for the main thread (the preloads start their
      // fetches, the import its loader's).
      afterPaint(doc, () => {
        putBackLater(doc)
        setTimeout(resolve, 0)
      })
    }
    const timer = setTimeout(finish, maxMs)
    if (img.complete) finish()
    else {
      img.addEventListener('load', finish, { once: true })
      img.addEventListener('error', finish, { once: true })
    }
  })
}
