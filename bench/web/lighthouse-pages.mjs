// Lighthouse 12 mobile (its default Moto G Power profile: simulated slow 4G,
// 4x CPU slowdown) on Prima's /home, /detail/:id and /shortvideo, signed in
// with the HTTP cache cleared (as measure.mjs's "returning" target), and on
// / and /detail/:id as a new visitor (Lighthouse's clean storage: no
// session, the guest signs in during the load), beside a baseline page in
// the same run, the runs interleaved round-robin.
//
// The baseline is a static page from a tiny node http server on loopback: a
// title bar, one of the seed's cover images at card size (from the same
// Prima server) and a paragraph; no JS. It is the floor this machine and
// Lighthouse's simulation give a page that does nothing, so a busy machine
// shows in it as well.
//
//   node lighthouse-pages.mjs [--bin ../../bin/prima] [--before <bin>] [--runs 5] [--json out.json] [--only shortvideo]
//
// --only keeps Prima's pages whose name contains the text (the baseline
// always runs), for more runs of one page in the same time.
//
// --before serves a second binary (say, main's build) beside the first and
// adds its three pages to the same round robin, marked "(before)", so a
// change and what it changes are measured under the same load.
import { writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import http from 'node:http'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromeFlags, freePort, startServer, signedIn } from '../../e2e/harness.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values: opts } = parseArgs({
  options: { bin: { type: 'string' }, before: { type: 'string' }, runs: { type: 'string', default: '5' }, json: { type: 'string' }, only: { type: 'string' } },
})
const RUNS = Math.max(1, Number(opts.runs) || 5)
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo']
const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b)
  if (!s.length) return null
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

// signIn: one real visit to / in the browser Lighthouse will drive (guest
// sign-in through splash, token stored), then the HTTP cache cleared.
async function signIn(port, base) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`)
  try {
    const page = await browser.contexts()[0].newPage()
    await page.goto(base + '/')
    await page.waitForURL(/\/home/, { timeout: 20000 })
    await signedIn(page) // the page shows while the guest signs in
    await page.locator('[data-testid=video-card]').first().waitFor({ timeout: 20000 })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.clearBrowserCache')
    await page.close()
  } finally {
    await browser.close()
  }
}

// failedItems names what a failed audit lists (a console message, a
// deprecated API), briefly.
function failedItems(a) {
  const items = a.details?.items ?? []
  const said = items.slice(0, 3).map((it) => String(it.description ?? it.value ?? it.source?.url ?? it.url ?? '').slice(0, 120)).filter(Boolean)
  return said.length ? `: ${said.join(' | ')}` : ''
}

async function lighthouseOnce(url, { signInBase }) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags })
  try {
    if (signInBase) await signIn(chrome.port, signInBase)
    const r = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: CATEGORIES,
      formFactor: 'mobile',
      disableStorageReset: !!signInBase,
    })
    const lhr = r.lhr
    const num = (id) => lhr.audits[id]?.numericValue
    const cat = Object.fromEntries(CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score * 100)]))
    const node = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
    const below = []
    for (const { id } of lhr.categories.performance.auditRefs) {
      const a = lhr.audits[id]
      if (!a || a.score == null || a.score >= 0.9 || a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'manual') continue
      below.push(`${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`)
    }
    // The other categories' failed audits, so a score under 100 says why.
    for (const c of CATEGORIES.slice(1)) {
      for (const { id } of lhr.categories[c]?.auditRefs ?? []) {
        const a = lhr.audits[id]
        if (!a || a.score == null || a.score >= 1 || a.scoreDisplayMode !== 'binary') continue
        below.push(`${c}: ${a.title}${failedItems(a)}`)
      }
    }
    return {
      ...cat,
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      tbt: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      si: num('speed-index'),
      finalUrl: lhr.finalDisplayedUrl,
      runtimeError: lhr.runtimeError?.message,
      lcpElement: node?.snippet,
      below,
      // Where the blocking time comes from: the main thread's long tasks
      // (Lighthouse's simulated durations, ms) and each script's share.
      longTasks: (lhr.audits['long-tasks']?.details?.items ?? []).map((t) => ({ url: t.url, start: Math.round(t.startTime), ms: Math.round(t.duration) })),
      bootup: (lhr.audits['bootup-time']?.details?.items ?? []).map((b) => ({ url: b.url, total: Math.round(b.total), scripting: Math.round(b.scripting) })),
    }
  } finally {
    chrome.kill()
  }
}

// pagesOf finds a free video with a real stream for the detail page (and a
// cover for the baseline) as a phone would, and names the three pages.
async function pagesOf(server, tag = '') {
  const b = await chromium.launch({ executablePath: CHROME_PATH, args: chromeFlags })
  const page = await (await b.newContext()).newPage()
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 20000 })
  await signedIn(page) // the page shows while the guest signs in
  await page.locator('[data-testid=video-card]').first().waitFor()
  const ids = await page.locator('[data-testid=video-card]').evaluateAll((els) => els.map((e) => Number(e.dataset.videoId)))
  const cover = await page.locator('[data-testid=video-card] img').first().getAttribute('src')
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  await b.close()
  let id
  for (const vid of ids) {
    const d = (await (await fetch(`${server.base}/api/app/vid/info?id=${vid}`, { headers: { Authorization: `Bearer ${token}` } })).json()).data
    if (d?.playback && !d.playback.preview) { id = vid; break }
  }
  return {
    coverURL: new URL(cover, server.base).href,
    targets: [
      // A new visitor: Lighthouse's own clean storage, no session; splash's
      // "/" (it ends on /home) and a shared video link.
      { name: '/ new visitor' + tag, url: server.base + '/', signInBase: null },
      { name: `/detail/${id} new visitor${tag}`, url: `${server.base}/detail/${id}`, signInBase: null },
      { name: '/home' + tag, url: server.base + '/home', signInBase: server.base },
      { name: `/detail/${id}${tag}`, url: `${server.base}/detail/${id}`, signInBase: server.base },
      { name: '/shortvideo' + tag, url: server.base + '/shortvideo', signInBase: server.base },
    ],
  }
}

async function main() {
  const loadStart = loadavg()
  const server = await startServer({}, { bin: resolve(opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima')) })
  const before = opts.before ? await startServer({}, { bin: resolve(opts.before) }) : null
  let baseSrv
  const runs = new Map()
  try {
    const { coverURL, targets: pages } = await pagesOf(server)
    const beforePages = before ? (await pagesOf(before, ' (before)')).targets : []
    const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Baseline</title><meta name="description" content="A static page: the floor of this measurement.">
<style>body{margin:0;font:16px/1.5 system-ui,sans-serif}header{height:45px;display:flex;align-items:center;justify-content:center;border-bottom:1px solid #ddd;font-weight:600}img{display:block;width:100%;height:auto;aspect-ratio:16/9}p{margin:12px 16px}</style>
</head><body><header>Baseline</header><main><img src="${coverURL}" width="390" height="219" alt="A cover"><p>A static page served on loopback with one cover image from the same Prima server, no script.</p></main></body></html>`
    const port = await freePort()
    baseSrv = http.createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' })
      res.end(html)
    })
    await new Promise((r) => baseSrv.listen(port, '127.0.0.1', r))
    // Each page right after its own "before", so the two see the same load.
    const targets = [{ name: 'baseline (static page + 1 cover)', url: `http://127.0.0.1:${port}/`, signInBase: null }]
    pages.forEach((p, i) => {
      if (opts.only && !p.name.includes(opts.only)) return
      targets.push(...(before ? [beforePages[i]] : []), p)
    })
    for (let i = 0; i < RUNS; i++) {
      for (const t of targets) {
        process.stderr.write(`lighthouse ${t.name} ${i + 1}/${RUNS}\n`)
        const r = await lighthouseOnce(t.url, t).catch((e) => ({ runtimeError: String(e).split('\n')[0] }))
        runs.set(t.name, [...(runs.get(t.name) ?? []), r])
      }
    }
  } finally {
    baseSrv?.close()
    await server.stop()
    await before?.stop()
  }
  const ms = (n) => (n == null ? '–' : `${Math.round(n)} ms`)
  const la = (l) => l.map((x) => x.toFixed(1)).join(' ')
  const lines = [
    `### Lighthouse 12 mobile (new visitor: clean storage; the rest signed in, HTTP cache cleared): median of ${RUNS} interleaved runs`,
    '',
    `Load average (1, 5, 15 min) at the start ${la(loadStart)}, at the end ${la(loadavg())}.`,
    '',
    '| page | performance | a11y | best practices | SEO | FCP | LCP | TBT | CLS | SI | performance scores |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ]
  const summary = {}
  for (const [name, rs] of runs) {
    const m = (k) => median(rs.map((r) => r[k]))
    const s = { performance: m('performance'), accessibility: m('accessibility'), bp: m('best-practices'), seo: m('seo'), fcp: m('fcp'), lcp: m('lcp'), tbt: m('tbt'), cls: m('cls'), si: m('si') }
    summary[name] = s
    lines.push(`| ${name} | **${s.performance}** | ${s.accessibility} | ${s.bp} | ${s.seo} | ${ms(s.fcp)} | ${ms(s.lcp)} | ${ms(s.tbt)} | ${s.cls == null ? '–' : s.cls.toFixed(3)} | ${ms(s.si)} | ${rs.map((r) => r.performance ?? 'err').join(', ')} |`)
  }
  lines.push('')
  for (const [name, rs] of runs) {
    const byScore = [...rs].sort((a, b) => (a.performance ?? -1) - (b.performance ?? -1))
    const mid = byScore[byScore.length >> 1]
    const errs = rs.map((r) => r.runtimeError).filter(Boolean)
    lines.push(`${name} (median run, ended on ${mid.finalUrl ? new URL(mid.finalUrl).pathname : '?'}): LCP element ${mid.lcpElement ? '`' + mid.lcpElement + '`' : '–'}`)
    for (const d of mid.below ?? []) lines.push(`- ${d}`)
    const short = (u) => (u ? u.replace(/^https?:\/\/[^/]+/, '') : '?')
    if (mid.longTasks?.length) lines.push(`- long tasks: ${mid.longTasks.map((t) => `${t.ms} ms at ${t.start} (${short(t.url)})`).join(', ')}`)
    if (errs.length) lines.push(`- runtime errors: ${errs.join('; ')}`)
    lines.push('')
  }
  console.log(lines.join('\n'))
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ date: new Date().toISOString(), runs: Object.fromEntries(runs), summary }, null, 2))
}

main().catch((e) => {
  console.error(e)
  process.exit(2)
})
