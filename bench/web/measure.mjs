// Front-end figures for the home route, against the real bin/prima:
//
//  (a) the JS and CSS a phone downloads (gzip bytes on the wire, from
//      Resource Timing's encodedBodySize), chunk by chunk, split into what
//      was requested before the home content showed (the budget) and what
//      came after, until the network was quiet; as a new visitor opening /
//      (on to /home, drawn while the guest signs in) and as a signed-in visitor
//      opening /home with a cold HTTP cache (a return after a deploy);
//  (b) Lighthouse mobile performance (its default Moto G Power profile,
//      simulated slow 4G and 4x CPU slowdown) on the same two, N runs, the
//      median of each figure reported.
//
// It builds nothing: run `make build` first. It seeds a temporary data dir
// and serves a binary itself (bin/prima, or --bin), or measures a server
// already running (--url). With --baseline (another binary) or
// --baseline-url it measures both in the same run, the Lighthouse runs
// interleaved, so a busy machine slows both alike (DESIGN: performance is
// measured against a baseline in the same run).
//
//   node measure.mjs [--bin ../../bin/prima | --url http://127.0.0.1:8097]
//                    [--baseline /tmp/old/bin/prima | --baseline-url URL]
//                    [--runs 3] [--skip-lighthouse] [--skip-transfer]
//                    [--json out.json] [--reports dir]
//
// Exit status: 0, or 1 when the current build's initial JS is over budget.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, devices } from 'playwright-core'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { chromeFlags, launchPhone, startServer, signedIn } from '../../e2e/harness.mjs'
import { JS_BUDGET_GZIP } from '../../e2e/budget.mjs'

const here = dirname(fileURLToPath(import.meta.url))

// The budget (JS_BUDGET_GZIP, 130 KB gzip) is e2e/budget.mjs's, which
// e2e/jsbudget.test.mjs asserts on every e2e run.

const { values: opts } = parseArgs({
  options: {
    bin: { type: 'string' },
    url: { type: 'string' },
    baseline: { type: 'string' },
    'baseline-url': { type: 'string' },
    runs: { type: 'string', default: '3' },
    'skip-lighthouse': { type: 'boolean', default: false },
    'skip-transfer': { type: 'boolean', default: false },
    json: { type: 'string' },
    reports: { type: 'string' },
  },
})
const RUNS = Math.max(1, Number(opts.runs) || 3)
const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium'

const kb = (n) => (n / 1024).toFixed(1)
const ms = (n) => (n == null ? '–' : `${Math.round(n)} ms`)
const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b)
  if (!s.length) return null
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

// waitHomeIdle waits for the home page's first content (a video card's
// cover decoded) and returns that moment on the page's clock; then for the
// network to be quiet and, with settle, SETTLE_MS more and quiet again, so
// code fetched once the browser is idle (the toast) is seen, counted apart.
const SETTLE_MS = 4000
async function waitHomeIdle(page, { settle = true } = {}) {
  await page.waitForURL(/\/home(\?|$)/, { timeout: 20000 })
  await signedIn(page) // the page shows while the guest signs in
  await page.getByTestId('home-page').waitFor({ timeout: 20000 })
  const handle = await page.waitForFunction(
    () => {
      const img = document.querySelector('[data-testid="video-card"] img')
      return img && img.complete && img.naturalWidth > 0 ? performance.now() : null
    },
    null,
    { timeout: 20000, polling: 'raf' },
  )
  const contentAt = await handle.jsonValue()
  await page.waitForLoadState('networkidle')
  if (settle) {
    await page.waitForTimeout(SETTLE_MS)
    await page.waitForLoadState('networkidle')
  }
  return contentAt
}

// resourceEntries reads what the page fetched from Resource Timing:
// encodedBodySize is the body as it came over the wire (gzip), which is
// what the budget counts; decodedBodySize is what the engine parsed.
async function resourceEntries(page) {
  return page.evaluate(() => {
    const nav = performance.getEntriesByType('navigation')[0]
    const res = performance.getEntriesByType('resource')
    return [nav, ...res].filter(Boolean).map((e) => ({
      url: e.name,
      wire: e.encodedBodySize,
      decoded: e.decodedBodySize,
      start: e.startTime,
    }))
  })
}

// classify splits the JS and CSS into what was requested before the home
// content showed (initial: the budget) and what came after (deferred).
function classify(entries, contentAt) {
  const path = (u) => new URL(u).pathname
  const pick = (re) =>
    entries.filter((e) => re.test(path(e.url))).map((e) => ({ ...e, path: path(e.url), deferred: e.start > contentAt }))
  const js = pick(/\.m?js$/)
  const css = pick(/\.css$/)
  const sum = (xs, k, deferred) => xs.filter((e) => e.deferred === deferred).reduce((a, e) => a + e[k], 0)
  return {
    contentAt,
    js,
    css,
    jsWire: sum(js, 'wire', false),
    jsDecoded: sum(js, 'decoded', false),
    jsDeferredWire: sum(js, 'wire', true),
    cssWire: sum(css, 'wire', false),
    cssDecoded: sum(css, 'decoded', false),
    cssDeferredWire: sum(css, 'wire', true),
    requests: entries.length,
  }
}

// The phone launchPhone opens (e2e/harness.mjs), for a second context.
const phone = () => ({ ...devices['iPhone 13'], colorScheme: 'light', locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })

// measureTransfer (a): a new visitor at / and then, with the storage that
// visit left (token cookie and local storage) but a new context's empty
// HTTP cache, /home.
async function measureTransfer(base) {
  const out = {}
  const { browser, context, page, errors } = await launchPhone()
  try {
    await page.goto(base + '/')
    const at = await waitHomeIdle(page)
    out.newVisitor = classify(await resourceEntries(page), at)
    const ctx2 = await browser.newContext({ ...phone(), storageState: await context.storageState() })
    const p2 = await ctx2.newPage()
    p2.on('pageerror', (e) => errors.push(String(e)))
    await p2.goto(base + '/home')
    const at2 = await waitHomeIdle(p2)
    out.returning = classify(await resourceEntries(p2), at2)
    out.returning.viaSplash = await p2.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/login/.test(e.name)))
    await ctx2.close()
    if (errors.length) out.errors = errors
  } finally {
    await browser.close()
  }
  return out
}

// signIn prepares a Chrome profile for the returning-visitor Lighthouse
// run: one real visit to / (guest sign-in, token stored), then the HTTP
// cache cleared so the code is fetched again, as after a deploy.
// Playwright attaches to the browser Lighthouse will drive and detaches.
async function signIn(port, base) {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`)
  try {
    const page = await browser.contexts()[0].newPage()
    await page.goto(base + '/')
    await waitHomeIdle(page, { settle: false })
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('Network.clearBrowserCache')
    await page.close()
  } finally {
    await browser.close() // for a connectOverCDP browser this only detaches
  }
}

// diagnostics: the audits Lighthouse scores below 0.9, by title, and the
// LCP element.
function diagnostics(lhr) {
  const out = []
  for (const { id } of lhr.categories.performance.auditRefs) {
    const a = lhr.audits[id]
    if (!a || a.score == null || a.score >= 0.9) continue
    if (a.scoreDisplayMode === 'notApplicable' || a.scoreDisplayMode === 'manual') continue
    out.push(`${a.title}${a.displayValue ? ` (${a.displayValue})` : ''} [${id}]`)
  }
  const node = lhr.audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node
  if (node) out.push(`LCP element: \`${node.snippet}\``)
  return out
}

// lighthouseOnce is the CLI's `lighthouse URL --form-factor=mobile
// --only-categories=performance` through the node API, in a fresh Chrome.
async function lighthouseOnce(url, { returning, base, reportFile }) {
  const chrome = await chromeLauncher.launch({ chromePath: CHROME_PATH, chromeFlags })
  try {
    if (returning) await signIn(chrome.port, base)
    const r = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      formFactor: 'mobile',
      // Keep what signIn left; it has emptied the HTTP cache itself.
      disableStorageReset: returning,
    })
    const lhr = r.lhr
    if (reportFile) writeFileSync(reportFile, r.report)
    const num = (id) => lhr.audits[id]?.numericValue
    const score = lhr.categories.performance.score
    return {
      score: score == null ? null : Math.round(score * 100),
      fcp: num('first-contentful-paint'),
      lcp: num('largest-contentful-paint'),
      tbt: num('total-blocking-time'),
      cls: num('cumulative-layout-shift'),
      si: num('speed-index'),
      finalUrl: lhr.finalDisplayedUrl,
      runtimeError: lhr.runtimeError?.message,
      diagnostics: diagnostics(lhr),
    }
  } finally {
    chrome.kill()
  }
}

const TARGETS = [
  { label: 'new-visitor', path: '/', returning: false, what: '`/`, new visitor (home drawn while the guest signs in)' },
  { label: 'returning', path: '/home', returning: true, what: '`/home`, signed in, HTTP cache cleared' },
]

// measureLighthouse runs every subject and target RUNS times, round-robin.
async function measureLighthouse(subjects, reportsDir) {
  const runs = new Map()
  for (let i = 0; i < RUNS; i++) {
    for (const t of TARGETS) {
      for (const s of subjects) {
        process.stderr.write(`lighthouse ${s.name} ${t.label} ${i + 1}/${RUNS}\n`)
        const reportFile = reportsDir && join(reportsDir, `${s.name}-${t.label}-${i + 1}.json`)
        const r = await lighthouseOnce(s.base + t.path, { ...t, base: s.base, reportFile })
        const key = `${s.name}/${t.label}`
        runs.set(key, [...(runs.get(key) ?? []), r])
      }
    }
  }
  const out = []
  for (const s of subjects) {
    for (const t of TARGETS) {
      const rs = runs.get(`${s.name}/${t.label}`)
      const m = (k) => median(rs.map((r) => r[k]))
      const byScore = [...rs].sort((a, b) => (a.score ?? -1) - (b.score ?? -1))
      out.push({
        subject: s.name,
        label: t.label,
        what: t.what,
        runs: rs,
        median: { score: m('score'), fcp: m('fcp'), lcp: m('lcp'), tbt: m('tbt'), cls: m('cls'), si: m('si') },
        // Diagnostics of the run whose score is the median one.
        diagnostics: byScore[byScore.length >> 1].diagnostics,
        finalUrl: rs[0].finalUrl,
        errors: rs.map((r) => r.runtimeError).filter(Boolean),
      })
    }
  }
  return out
}

function printTransferSummary(subjects) {
  const lines = [
    '### JS and CSS on the wire (gzip KB)',
    '',
    '| build | visit | initial JS | JS after content | initial CSS | home content at |',
    '| --- | --- | ---: | ---: | ---: | ---: |',
  ]
  for (const s of subjects) {
    for (const [visit, v] of [['`/` new visitor', s.transfer.newVisitor], ['`/home` signed in, cold cache', s.transfer.returning]]) {
      const flag = v.jsWire > JS_BUDGET_GZIP ? ' (over budget)' : ''
      lines.push(`| ${s.name} | ${visit} | **${kb(v.jsWire)}**${flag} | ${kb(v.jsDeferredWire)} | ${kb(v.cssWire)} | ${ms(v.contentAt)} |`)
    }
  }
  lines.push('', `Budget: initial JS ≤ ${kb(JS_BUDGET_GZIP)} KB gzip. "Initial" is what was requested before the first cover showed; "after content" until the network was quiet ${SETTLE_MS / 1000} s later.`, '')
  return lines.join('\n')
}

function printTransferDetail(s) {
  const lines = []
  for (const [name, v] of [['`/`, new visitor', s.transfer.newVisitor], ['`/home`, signed in, cold HTTP cache', s.transfer.returning]]) {
    lines.push(`#### ${s.name}: ${name}`, '')
    if (v.viaSplash) lines.push('_(went through splash: the stored session was not picked up)_', '')
    lines.push('| file | when | gzip (KB) | decoded (KB) |', '| --- | --- | ---: | ---: |')
    const order = (a, b) => a.deferred - b.deferred || b.wire - a.wire
    const when = (e) => (e.deferred ? 'after content' : 'initial')
    for (const e of [...v.js].sort(order)) lines.push(`| ${e.path} | ${when(e)} | ${kb(e.wire)} | ${kb(e.decoded)} |`)
    lines.push(`| **initial JS, ${v.js.filter((e) => !e.deferred).length} files** | | **${kb(v.jsWire)}** | **${kb(v.jsDecoded)}** |`)
    for (const e of [...v.css].sort(order)) lines.push(`| ${e.path} | ${when(e)} | ${kb(e.wire)} | ${kb(e.decoded)} |`)
    lines.push(`| **initial CSS, ${v.css.filter((e) => !e.deferred).length} files** | | **${kb(v.cssWire)}** | **${kb(v.cssDecoded)}** |`, '')
  }
  if (s.transfer.errors?.length) lines.push('Page errors:', ...s.transfer.errors.map((e) => `- ${e}`), '')
  return lines.join('\n')
}

function printLighthouse(lh) {
  const lines = [
    `### Lighthouse mobile performance (median of ${RUNS} runs)`,
    '',
    '| build | measured | score | FCP | LCP | TBT | CLS | Speed Index | scores |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
  ]
  for (const t of lh) {
    const m = t.median
    const cls = m.cls == null ? '–' : m.cls.toFixed(3)
    lines.push(`| ${t.subject} | ${t.what} | **${m.score}** | ${ms(m.fcp)} | ${ms(m.lcp)} | ${ms(m.tbt)} | ${cls} | ${ms(m.si)} | ${t.runs.map((r) => r.score).join(', ')} |`)
  }
  lines.push('')
  for (const t of lh) {
    if (t.errors.length) lines.push(`Runtime errors (${t.subject}, ${t.label}): ${t.errors.join('; ')}`)
    lines.push(`Below 0.9, ${t.subject}, ${t.label} (median run; ended on ${new URL(t.finalUrl).pathname}):`)
    lines.push(...(t.diagnostics.length ? t.diagnostics.map((d) => `- ${d}`) : ['- none']), '')
  }
  return lines.join('\n')
}

async function subject(name, bin, url) {
  if (url) return { name, base: url.replace(/\/$/, ''), stop: async () => {} }
  const server = await startServer({}, { bin: resolve(bin) })
  return { name, base: server.base, stop: server.stop }
}

async function main() {
  const subjects = []
  const result = { date: new Date().toISOString(), runs: RUNS }
  try {
    subjects.push(await subject('current', opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima'), opts.url))
    if (opts.baseline || opts['baseline-url']) subjects.push(await subject('baseline', opts.baseline, opts['baseline-url']))
    if (opts.reports) mkdirSync(opts.reports, { recursive: true })
    if (!opts['skip-transfer']) for (const s of subjects) s.transfer = await measureTransfer(s.base)
    if (!opts['skip-lighthouse']) result.lighthouse = await measureLighthouse(subjects, opts.reports)
  } finally {
    for (const s of subjects) await s.stop()
  }
  result.subjects = subjects.map(({ name, base, transfer }) => ({ name, base, transfer }))
  const md = []
  if (!opts['skip-transfer']) md.push(printTransferSummary(subjects), ...subjects.map(printTransferDetail))
  if (result.lighthouse) md.push(printLighthouse(result.lighthouse))
  console.log(md.join('\n'))
  if (opts.json) writeFileSync(opts.json, JSON.stringify(result, null, 2))
  const cur = subjects[0].transfer
  process.exitCode = cur && Math.max(cur.newVisitor.jsWire, cur.returning.jsWire) > JS_BUDGET_GZIP ? 1 : 0
}

main().catch((e) => {
  console.error(e)
  process.exit(2)
})
