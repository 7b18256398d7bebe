// A route's page module, loaded on first visit (React.lazy), and loaded
// again in place when its code could not be fetched.
import { lazy, type ComponentType, type LazyExoticComponent } from 'react'

type PageModule = { default: ComponentType }
export type PageLoader = () => Promise<PageModule>

// One React.lazy per page module, so routes sharing a page share its chunk
// and component type. React.lazy keeps a failed load for good, so a page
// whose code could not be fetched (offline) is forgotten here: retryPages
// gives the next render a fresh lazy that loads it again, in place, with
// no reload of the document.
const lazyCache = new Map<PageLoader, LazyExoticComponent<ComponentType>>()
const failedLoads = new Set<PageLoader>()
// What a page loaded again waits for first: the stylesheets retryPages put
// back in.
const restyling = new Map<PageLoader, Promise<void>>()

export function lazyOf(load: PageLoader): LazyExoticComponent<ComponentType> {
  let c = lazyCache.get(load)
  if (!c) {
    const styles = restyling.get(load) ?? Promise.resolve()
    restyling.delete(load)
    c = lazy(() =>
      styles.then(load).catch((e: unknown) => {
        failedLoads.add(load)
        throw e
      }),
    )
    lazyCache.set(load, c)
  }
  return c
}

// The app's stylesheets whose link failed (Chromium still gives a failed
// link a sheet, an empty one, so only the events tell). Link events do not
// bubble; a listener on the document in the capture phase sees them all.
const failedSheets = new Set<HTMLLinkElement>()

export function watchStylesheets(target: Pick<Document, 'addEventListener'>): void {
  const note = (e: Event) => {
    const l = e.target as HTMLLinkElement | null
    if (l?.tagName !== 'LINK' || l.rel !== 'stylesheet') return
    if (e.type === 'error') failedSheets.add(l)
    else failedSheets.delete(l)
  }
  target.addEventListener('error', note, true)
  target.addEventListener('load', note, true)
}

if (typeof document !== 'undefined') watchStylesheets(document)

// retryPages lets every page whose code failed to load try again on its
// next render. Its stylesheets need a hand: Vite's loader links a page's
// stylesheets before importing it, but only once per document, even when
// the link failed, so a second load of the page would come unstyled. Every
// app stylesheet that failed is linked again here, and the pages wait for
// those links; one that fails again fails the page's load, which then
// shows its offline state again.
export function retryPages(): void {
  const again: Promise<void>[] = []
  for (const old of failedSheets) {
    failedSheets.delete(old)
    if (!old.isConnected || !new URL(old.href).pathname.startsWith('/assets/')) continue
    const link = old.cloneNode() as HTMLLinkElement
    again.push(
      new Promise<void>((resolve, reject) => {
        link.addEventListener('load', () => resolve(), { once: true })
        link.addEventListener('error', () => reject(new Error(`Unable to preload CSS for ${link.href}`)), { once: true })
      }),
    )
    old.replaceWith(link)
  }
  const styles = Promise.all(again).then(() => undefined)
  styles.catch(() => undefined) // the pages' loads report it
  for (const load of failedLoads) {
    lazyCache.delete(load)
    restyling.set(load, styles)
  }
  failedLoads.clear()
}

// RoutePage renders a route's page. The lazy sits one component below the
// route's error boundary, never as its direct child: routes of the same
// shape (two tabs, two detail pages) reuse the boundary's fiber, and React
// resolves a new lazy type while reconciling that fiber's children, so a
// failed load would be the boundary's own error and escape to the one
// around the whole app (taking the tab bar with it).
export function RoutePage({ load }: { load: PageLoader }) {
  const Page = lazyOf(load)
  return <Page />
}
