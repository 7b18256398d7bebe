// The first screen the server drew (internal/app/firstscreen.go): on
// /home, /shortvideo and /detail/:id the page carries a layer over the app
// with the page's largest picture (home's first banner, the first clip's
// poster, the video's cover) where the app will draw it, so it paints
// before this script has even run. The app takes over from it here: the
// layer stays until the app shows the same picture (an <img> with that
// src, or a <video> with that poster) and is removed in a frame after the
// app's copy is decoded, so the picture never blinks; the page under it was
// laid out all along, so nothing moves. It goes at once when the app is
// on another path, or when a page drops it (splash showing a failed
// sign-in, the gate's hand-off), and after FIRST_SCREEN_MAX_MS in any case,
// so it can never hide the app. On `/` the layer is home's (data-path
// /home) and names `/` as the way there (data-via): the app passes through
// splash's path on its way to home, which is not "another path".
export const FIRST_SCREEN_ID = 'prima-first'
export const FIRST_SCREEN_MAX_MS = 4000

// shows says whether el is the app drawing the picture at pic.
function shows(el: Element, pic: string): boolean {
  const attr = el.tagName === 'IMG' ? 'src' : el.tagName === 'VIDEO' ? 'poster' : null
  return attr != null && el.getAttribute(attr) === pic
}

const nextFrame = (fn: () => void) => (typeof requestAnimationFrame === 'function' ? requestAnimationFrame(() => fn()) : setTimeout(fn, 16))

// watchFirstScreen starts the take-over; it does nothing when the page has
// no layer. It returns the removal, for tests.
export function watchFirstScreen(
  doc: Document = document,
  pathname: () => string = () => window.location.pathname,
  maxMs = FIRST_SCREEN_MAX_MS,
): (() => void) | undefined {
  const layer = doc.getElementById(FIRST_SCREEN_ID)
  if (!layer) return undefined
  const pic = layer.querySelector('img')?.getAttribute('src') ?? ''
  const path = layer.dataset.path ?? ''
  const via = layer.dataset.via
  const root = doc.getElementById('root') ?? doc.body
  let done = false
  let found = false
  const release = () => {
    if (done) return
    done = true
    observer.disconnect()
    clearTimeout(timer)
    layer.remove()
  }
  const check = () => {
    if (done || found) return
    if (!layer.isConnected) return release()
    const at = pathname()
    if (at === via) return
    if (!pic || at !== path) return release()
    let el: Element | undefined
    for (const x of root.querySelectorAll('img, video')) {
      if (shows(x, pic)) {
        el = x
        break
      }
    }
    if (!el) return
    found = true
    observer.disconnect()
    // The app's copy comes from the memory cache (the layer loaded it), but
    // an async-decoded image or a poster may still take a frame to paint.
    const img = el.tagName === 'IMG' ? (el as HTMLImageElement) : Object.assign(doc.createElement('img'), { src: pic })
    const decoded = typeof img.decode === 'function' ? img.decode() : Promise.resolve()
    void decoded.catch(() => undefined).then(() => nextFrame(() => nextFrame(release)))
  }
  const observer = new MutationObserver(check)
  observer.observe(root, { childList: true, subtree: true, attributes: true, attributeFilter: ['src', 'poster'] })
  const timer = setTimeout(release, maxMs)
  return release
}

// dropFirstScreen takes the layer away at once: for a page that shows
// something else where the layer's page would be.
export function dropFirstScreen(doc: Document = document): void {
  doc.getElementById(FIRST_SCREEN_ID)?.remove()
}
