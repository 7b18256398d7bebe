// The home route's initial-JS budget, measured as a phone gets the app:
// one definition for e2e/jsbudget.test.mjs (which fails the suite when a
// visit goes over) and bench/web (measure.mjs, initial-js.mjs, which
// print the figures).
//
// "Initial" is every script requested before home's first content showed
// (a video card's cover decoded), in gzip bytes on the wire (Resource
// Timing's encodedBodySize). What comes later is "after content": today
// antd-mobile's toast (toast, render-imperatively with react-spring,
// config-provider, auto-center: about 27.5 KB), which web/src/lib/toast.ts
// fetches once the page has loaded and the browser is idle, so the first
// toast shows at once. A list of every script before the first tap
// (initial-js.mjs) includes that group; it is not what the budget counts.

// The budget for the home route's initial JavaScript.
export const JS_BUDGET_GZIP = 130 * 1024

// web/src/lib/toast.ts's IDLE_PRELOAD_DELAY_MS: the toast's code is asked
// for no earlier than this long after the load event.
export const IDLE_PRELOAD_DELAY_MS = 2000

export const kb = (n) => (n / 1024).toFixed(1)

// homeContentAt waits for home's first content, a video card's cover
// decoded, and returns that moment on the page's clock.
export async function homeContentAt(page) {
  await page.waitForURL(/\/home(\?|$)/, { timeout: 20000 })
  await page.getByTestId('home-page').waitFor({ timeout: 20000 })
  const handle = await page.waitForFunction(
    () => {
      const img = document.querySelector('[data-testid="video-card"] img')
      return img && img.complete && img.naturalWidth > 0 ? performance.now() : null
    },
    null,
    { timeout: 20000, polling: 'raf' },
  )
  return handle.jsonValue()
}

// scripts lists the page's scripts from Resource Timing, each marked
// deferred when it was requested after the content showed. On a slow
// machine the content can come after the idle toast preload has started;
// what starts IDLE_PRELOAD_DELAY_MS or more after the load event is that
// preload, not the first screen's, so it is deferred too.
export async function scripts(page, contentAt) {
  const { entries, loadAt } = await page.evaluate(() => ({
    loadAt: performance.getEntriesByType('navigation')[0]?.loadEventEnd || Infinity,
    entries: performance
      .getEntriesByType('resource')
      .filter((e) => /\.m?js$/.test(new URL(e.name).pathname))
      .map((e) => ({ path: new URL(e.name).pathname, wire: e.encodedBodySize, decoded: e.decodedBodySize, start: e.startTime })),
  }))
  const cut = Math.min(contentAt, loadAt + IDLE_PRELOAD_DELAY_MS)
  const js = entries.map((e) => ({ ...e, deferred: e.start > cut }))
  const sum = (deferred) => js.filter((e) => e.deferred === deferred).reduce((a, e) => a + e.wire, 0)
  return { contentAt, js, initial: sum(false), after: sum(true) }
}
