// The scripts a first visit downloads before any tap, with gzip sizes on
// the wire (Resource Timing's encodedBodySize), for a direct visit to /home
// (signed in, and as a new visitor, which goes through splash) and to
// /detail/:id (signed in); each in a new context with an empty HTTP cache,
// waiting for the page's content, the network to be quiet and 3 s more.
// It flags hls.js (the player's lazy chunk, hls.light-<hash>.js) where it
// appears.
//
// The total here is NOT the budget's figure: it includes the scripts
// fetched after the content showed, above all antd-mobile's toast (about
// 27.5 KB, which web/src/lib/toast.ts fetches once the page has loaded and
// the browser is idle). Each script is marked initial or after content as
// e2e/budget.mjs defines them, and each /home visit prints its initial
// figure against the 130 KB budget (the one e2e/jsbudget.test.mjs asserts
// and measure.mjs reports). Exit status 1 when a /home visit is over.
//
//   node initial-js.mjs [--bin ../../bin/prima] [--json out.json]
import { writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, devices } from 'playwright-core'
import { chromeFlags, startServer, signedIn } from '../../e2e/harness.mjs'
import { JS_BUDGET_GZIP, homeContentAt, kb, scripts } from '../../e2e/budget.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values: opts } = parseArgs({ options: { bin: { type: 'string' }, json: { type: 'string' } } })
const phone = () => ({ ...devices['iPhone 13'], colorScheme: 'light', locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })

// ready waits for the page's content and returns that moment on the
// page's clock.
async function visit(browser, storageState, url, ready) {
  const ctx = await browser.newContext({ ...phone(), storageState })
  const page = await ctx.newPage()
  await page.goto(url)
  const contentAt = await ready(page)
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(3000)
  await page.waitForLoadState('networkidle')
  const { js, initial, after } = await scripts(page, contentAt)
  const entries = js.map((e) => ({ ...e, start: Math.round(e.start) }))
  // hls.js: Vite keeps the module's name in its chunk's (hls.light-<hash>.js).
  for (const e of entries) e.hls = /\/hls[.-]/.test(e.path)
  const finalPath = new URL(page.url()).pathname
  await ctx.close()
  return { url, finalPath, entries, total: initial + after, initial, after }
}

async function main() {
  const server = await startServer({}, { bin: resolve(opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima')) })
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
  const out = []
  try {
    const ctx = await browser.newContext(phone())
    const page = await ctx.newPage()
    await page.goto(server.base + '/')
    await page.waitForURL(/\/home/, { timeout: 20000 })
    await signedIn(page) // the page shows while the guest signs in
    await page.locator('[data-testid=video-card]').first().waitFor()
    const ids = await page.locator('[data-testid=video-card]').evaluateAll((els) => els.map((e) => Number(e.dataset.videoId)))
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
    const state = await ctx.storageState()
    await ctx.close()
    let id
    for (const vid of ids) {
      const d = (await (await fetch(`${server.base}/api/app/vid/info?id=${vid}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data
      if (d?.playback && !d.playback.preview) { id = vid; break }
    }
    out.push({ name: '/home, signed in', budget: true, ...(await visit(browser, state, server.base + '/home', homeContentAt)) })
    out.push({ name: '/home, new visitor (no session: splash, guest sign-in, home)', budget: true, ...(await visit(browser, undefined, server.base + '/home', homeContentAt)) })
    const player = async (p) => {
      await p.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
      return p.evaluate(() => performance.now())
    }
    out.push({ name: `/detail/${id}, signed in, before any tap`, ...(await visit(browser, state, `${server.base}/detail/${id}`, player)) })
  } finally {
    await browser.close()
    await server.stop()
  }
  const lines = []
  for (const v of out) {
    const over = v.budget && v.initial > JS_BUDGET_GZIP ? ' **over budget**' : ''
    const budget = v.budget ? ` (budget ${kb(JS_BUDGET_GZIP)} KB${over})` : ''
    lines.push(
      `#### ${v.name} (ended on ${v.finalPath}): ${kb(v.total)} KB gzip JS in ${v.entries.length} files`,
      '',
      `Initial (before the content showed): ${kb(v.initial)} KB${budget}; after content: ${kb(v.after)} KB.`,
      '',
      '| script | requested at | when | gzip KB | decoded KB |',
      '| --- | ---: | --- | ---: | ---: |',
    )
    for (const e of v.entries) lines.push(`| ${e.path}${e.hls ? ' (hls.js)' : ''} | ${e.start} ms | ${e.deferred ? 'after content' : 'initial'} | ${kb(e.wire)} | ${kb(e.decoded)} |`)
    lines.push('')
  }
  console.log(lines.join('\n'))
  if (opts.json) writeFileSync(opts.json, JSON.stringify(out, null, 2))
  if (out.some((v) => v.budget && v.initial > JS_BUDGET_GZIP)) process.exitCode = 1
}

main().catch((e) => {
  console.error(e)
  process.exit(2)
})
