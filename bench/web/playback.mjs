// Tap -> first video frame on the detail page, against a bare hls.js page
// playing the same signed playlist from the same origin, interleaved.
//
// Definition. The phone (the e2e harness's iPhone 13 in Debian's Chromium)
// opens /detail/:id with an empty HTTP cache and its stored guest session,
// then waits until the page is settled: the player reports ready (metadata
// loaded), the network has been quiet for 500 ms. Then it taps the middle
// of the <video> (a trusted touch through CDP, which hits the native
// controls' play button). Measured on the page's clock:
//   tap     = the touchstart's timeStamp (captured on window). Headless
//             Chromium's mobile controls do not react to synthetic touches,
//             so the tap's touchend calls video.play() as their play button
//             would (same call, same user activation, both pages alike);
//   frame   = the `now` of the first requestVideoFrameCallback, registered
//             at the tap, whose mediaTime is past the position at the tap:
//             the first composited frame of the moving picture (headline);
//   playing = the `playing` event; advanced = the first timeupdate with
//             currentTime > 0.
// Chromium 156 plays HLS natively, so both pages use the browser's own
// HLS unless --hlsjs denies it (then both run hls.js light; Prima's page
// downloads its hls.js chunk when the player mounts, before any tap).
// With --early the tap comes as soon as the <video> is visible (the
// viewer who taps at once: hls.js may still be downloading).
//
// Baseline: a static page fulfilled by playwright at the same origin
// (/__bench/baseline.html, with hls.js light from web/node_modules) with a
// <video controls playsinline preload=metadata poster> of the same size and
// hls.js attached on load to the same signed master playlist vid/info
// hands out. The route is removed before any media is requested, so no
// request of either page is intercepted. Each open is a new browser context
// (empty HTTP cache, the guest's storage), prima and baseline alternating.
//
//   node playback.mjs [--bin ../../bin/prima] [--runs 15] [--early] [--hlsjs] [--json out.json]
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, devices } from 'playwright-core'
import { chromeFlags, startServer, signedIn } from '../../e2e/harness.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values: opts } = parseArgs({
  options: {
    bin: { type: 'string' },
    runs: { type: 'string', default: '15' },
    early: { type: 'boolean', default: false },
    hlsjs: { type: 'boolean', default: false },
    json: { type: 'string' },
  },
})
const RUNS = Math.max(1, Number(opts.runs) || 15)
const HLS_JS = readFileSync(join(here, '..', '..', 'web', 'node_modules', 'hls.js', 'dist', 'hls.light.min.js'))

const phone = () => ({ ...devices['iPhone 13'], colorScheme: 'light', locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })
const median = (xs) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b)
  if (!s.length) return null
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}
const pct = (xs, p) => {
  const s = xs.filter((x) => x != null).sort((a, b) => a - b)
  return s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] : null
}

const baselineHTML = (src, poster) => `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>baseline</title>
<style>body{margin:0}video{display:block;width:100%;aspect-ratio:16/9;background:#000}</style>
</head><body>
<video controls playsinline preload="metadata" poster=${JSON.stringify(poster)}></video>
<script src="/__bench/hls.light.min.js"></script>
<script>
const v = document.querySelector('video')
const src = ${JSON.stringify(src)}
if (v.canPlayType('application/vnd.apple.mpegurl')) v.src = src
else { const h = new Hls({ capLevelToPlayerSize: true }); h.loadSource(src); h.attachMedia(v) }
v.addEventListener('loadedmetadata', () => v.dataset.status = 'ready')
</script></body></html>`

// instrument arms the measurement in the page: the next touchstart records
// the tap and registers the frame callback.
const instrument = () => {
  const v = document.querySelector('video')
  const r = (window.__tap = { tap: null, taps: 0, play: null, frame: null, playing: null, advanced: null, readyAtTap: null })
  window.addEventListener(
    'touchstart',
    (e) => {
      if (r.tap != null) return
      r.tap = e.timeStamp
      r.taps++
      r.readyAtTap = v.readyState
      const t0 = v.currentTime
      const onFrame = (now, meta) => {
        if (meta.mediaTime > t0) r.frame = now
        else v.requestVideoFrameCallback(onFrame)
      }
      v.requestVideoFrameCallback(onFrame)
    },
    { capture: true },
  )
  // Headless Chromium's mobile media controls do not act on synthetic
  // touches (no click reaches them), so the tap's touchend starts playback
  // as the controls' play button would: the same call, in the same tap.
  window.addEventListener('touchend', () => { if (r.play == null) void v.play() }, { capture: true })
  v.addEventListener('play', () => { if (r.play == null) r.play = performance.now() })
  v.addEventListener('playing', () => { if (r.tap != null && r.playing == null) r.playing = performance.now() })
  v.addEventListener('timeupdate', () => { if (r.tap != null && r.advanced == null && v.currentTime > 0) r.advanced = performance.now() })
}

async function openOnce(browser, storageState, kind, base, id, src, poster) {
  const ctx = await browser.newContext({ ...phone(), storageState })
  // Chromium 14x+ plays HLS natively (canPlayType says "maybe"), so both
  // pages take the native path; --hlsjs makes the browser deny it, so both
  // go through hls.js (as on desktop browsers without native HLS), and
  // Prima's page downloads the hls.js chunk when the player mounts.
  if (opts.hlsjs) {
    await ctx.addInitScript(() => {
      const orig = HTMLMediaElement.prototype.canPlayType
      HTMLMediaElement.prototype.canPlayType = function (t) {
        return /mpegurl/i.test(t) ? '' : orig.call(this, t)
      }
    })
  }
  const page = await ctx.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  try {
    let url = `${base}/detail/${id}`
    if (kind === 'baseline') {
      url = `${base}/__bench/baseline.html`
      await page.route(url, (r) => r.fulfill({ contentType: 'text/html', body: baselineHTML(src, poster) }))
      await page.route(`${base}/__bench/hls.light.min.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: HLS_JS }))
    }
    await page.goto(url, { waitUntil: 'commit' })
    if (kind === 'baseline') {
      // The page and its script are in; nothing else is intercepted.
      await page.waitForFunction(() => typeof window.Hls === 'function' || document.querySelector('video')?.src)
      await page.unrouteAll()
    }
    const video = page.locator('video')
    await video.waitFor({ state: 'visible', timeout: 20000 })
    if (!opts.early) {
      await page.waitForFunction(() => document.querySelector('video').readyState >= 1, null, { timeout: 20000 })
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(500)
    }
    await page.evaluate(instrument)
    const box = await video.boundingBox()
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2)
    const h = await page.waitForFunction(() => {
      const r = window.__tap
      return r.frame != null && r.advanced != null && r.playing != null ? r : null
    }, null, { timeout: 20000, polling: 50 })
    const r = await h.jsonValue()
    const hlsChunk = await page.evaluate(() => performance.getEntriesByType('resource').some((e) => /\/hls[.-]/.test(new URL(e.name).pathname)))
    return { hlsChunk, taps: r.taps, frame: r.frame - r.tap, playing: r.playing - r.tap, advanced: r.advanced - r.tap, readyAtTap: r.readyAtTap, errors }
  } catch (e) {
    const state = await page.evaluate(() => { const v = document.querySelector('video'); return JSON.stringify({ tap: window.__tap, rs: v?.readyState, paused: v?.paused, t: v?.currentTime }) }).catch(() => '')
    return { error: `${String(e).split('\n')[0]} ${state}`, errors }
  } finally {
    await ctx.close()
  }
}

async function main() {
  const server = await startServer({}, { bin: resolve(opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima')) })
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
  const results = { prima: [], baseline: [] }
  let id
  try {
    // Sign in as a guest once (through splash) and pick the first free,
    // playable video on home.
    const ctx = await browser.newContext(phone())
    const page = await ctx.newPage()
    await page.goto(server.base + '/')
    await page.waitForURL(/\/home/, { timeout: 20000 })
    await signedIn(page) // the page shows while the guest signs in
    await page.locator('[data-testid=video-card]').first().waitFor()
    const ids = await page.locator('[data-testid=video-card]').evaluateAll((els) => els.map((e) => Number(e.dataset.videoId)))
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
    const storageState = await ctx.storageState()
    await ctx.close()
    const info = async (vid) => {
      const r = await fetch(`${server.base}/api/app/vid/info?id=${vid}`, { headers: { Authorization: `Bearer ${token}` } })
      return (await r.json()).data
    }
    for (const vid of ids) {
      const d = await info(vid)
      if (d?.playback && !d.playback.preview) { id = vid; break }
    }
    if (!id) throw new Error('no free playable video on home')
    for (let i = 0; i < RUNS; i++) {
      const d = await info(id) // a fresh signed URL, as the page gets
      for (const kind of i % 2 ? ['baseline', 'prima'] : ['prima', 'baseline']) {
        const r = await openOnce(browser, storageState, kind, server.base, id, d.playback.url, d.cover)
        process.stderr.write(`${kind} ${i + 1}/${RUNS}: ${r.error ?? `frame ${r.frame.toFixed(0)} ms, playing ${r.playing.toFixed(0)} ms (readyState ${r.readyAtTap}, hls.js loaded ${r.hlsChunk})`}\n`)
        results[kind].push(r)
      }
    }
  } finally {
    await browser.close()
    await server.stop()
  }
  const row = (name, rs) => {
    const ok = rs.filter((r) => r.error == null)
    const m = (k) => median(ok.map((r) => r[k]))
    return { name, n: ok.length, failed: rs.length - ok.length, frame: m('frame'), frameP90: pct(ok.map((r) => r.frame), 90), playing: m('playing'), advanced: m('advanced'), min: Math.min(...ok.map((r) => r.frame)), max: Math.max(...ok.map((r) => r.frame)) }
  }
  const p = row('prima /detail/' + id, results.prima)
  const b = row('baseline (bare hls.js page)', results.baseline)
  const f = (x) => (x == null ? '–' : `${Math.round(x)} ms`)
  const lines = [
    `### Tap → first video frame (${opts.early ? 'tap as soon as the video shows' : 'tap on a settled page'}, ${opts.hlsjs ? 'hls.js' : "Chromium's native HLS"}), median of ${RUNS} interleaved opens`,
    '',
    '| page | tap → frame | p90 | range | tap → playing | tap → currentTime > 0 | ok / failed |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...[p, b].map((r) => `| ${r.name} | **${f(r.frame)}** | ${f(r.frameP90)} | ${f(r.min)}–${f(r.max)} | ${f(r.playing)} | ${f(r.advanced)} | ${r.n} / ${r.failed} |`),
    '',
    `Ratio prima / baseline (tap → frame medians): ${p.frame && b.frame ? (p.frame / b.frame).toFixed(2) : '–'}×. Goal ≤ 300 ms.`,
  ]
  const errs = [...results.prima, ...results.baseline].flatMap((r) => [r.error, ...(r.errors ?? [])]).filter(Boolean)
  if (errs.length) lines.push('', 'Errors:', ...[...new Set(errs)].map((e) => `- ${e}`))
  console.log(lines.join('\n'))
  if (opts.json) writeFileSync(opts.json, JSON.stringify({ date: new Date().toISOString(), early: opts.early, id, results, summary: { prima: p, baseline: b } }, null, 2))
}

main().catch((e) => {
  console.error(e)
  process.exit(2)
})
