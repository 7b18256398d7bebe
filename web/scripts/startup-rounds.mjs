// Counts the sequential rounds of API calls a first visit makes before the
// first cover shows, on the real server in headless Chromium as an iPhone.
// Every /api/ call is held back DELAY ms (a phone's round trip), so a call
// that waits for another starts visibly after it ends. A call's round is one
// more than the highest round among the calls that had finished when it
// started; the answer is the highest round reached before the first cover.
//
//   make build && node web/scripts/startup-rounds.mjs [path/to/prima]
import { startServer, launchPhone } from '../../e2e/harness.mjs'

const DELAY = Number(process.env.DELAY ?? 200)
const bin = process.argv[2]
const server = await startServer({}, bin ? { bin } : undefined)
const phone = await launchPhone()
const { page } = phone
const t0 = Date.now()
const calls = []
await page.route('**/api/**', async (route) => {
  await new Promise((r) => setTimeout(r, DELAY))
  await route.continue()
})
page.on('request', (r) => {
  const u = new URL(r.url())
  // Image requests of the page itself; the tab's favicon (type 'other') is
  // the browser's own.
  const img = r.resourceType() === 'image' && (u.pathname.endsWith('.svg') || u.pathname.endsWith('.png'))
  if (u.pathname.startsWith('/api/') || u.pathname.startsWith('/media/') || img)
    calls.push({ req: r, path: u.pathname, start: Date.now() - t0, end: Infinity })
})
page.on('requestfinished', (r) => {
  const c = calls.find((x) => x.req === r)
  if (c) c.end = Date.now() - t0
})
try {
  await page.goto(server.base + '/')
  await page.waitForFunction(() => document.querySelector('[data-testid=video-card] [data-phase=loaded]'), null, { timeout: 20000 })
  const firstCover = Date.now() - t0
  await page.waitForTimeout(300)
  const logos = calls.filter((c) => !c.path.startsWith('/api/') && !c.path.startsWith('/media/') && c.start < firstCover)
  calls.splice(0, calls.length, ...calls.filter((c) => !logos.includes(c)))
  calls.sort((a, b) => a.start - b.start)
  for (const c of calls) c.round = 1 + Math.max(0, ...calls.filter((d) => d.end <= c.start).map((d) => d.round ?? 0))
  const api = calls.filter((c) => c.path.startsWith('/api/') && c.start < firstCover)
  const cover = calls.find((c) => c.path.startsWith('/media/'))
  for (const c of calls.filter((c) => c.start < firstCover && (c.path.startsWith('/api/') || c === cover))) console.log(`round ${c.round}  ${String(c.start).padStart(5)}-${String(c.end).padStart(5)} ms  ${c.path}`)
  console.log(`API rounds before the first cover: ${Math.max(...api.map((c) => c.round))}; first cover request in round ${cover?.round}; first cover shown at ${firstCover} ms (API delay ${DELAY} ms); image requests before it: ${logos.map((c) => c.path).join(' ') || 'none'}`)
} finally {
  await phone.browser.close()
  await server.stop()
}
