// The main thread's long tasks of one page's first load, and what is in
// each: what Lighthouse's Total Blocking Time counts, seen from inside.
// A new visitor (a clean context, an iPhone-sized window) opens the page
// on a fresh server; the trace is kept for 5 s. Every task over 12 ms of
// wall time (50 ms at Lighthouse's 4x slowdown) is listed with its CPU
// time (wall much above CPU: the thread waited, for another process or a
// core), the rendering work inside it, and, with --profile, the sampled
// script: where each sample entered (entry), the functions it spent its
// time in (self) and under (incl).
//
//   node boot-tasks.mjs [--bin ../../bin/prima] [--profile] [--under <frame>] [/detail/37]
//
// --profile samples the script every 0.1 ms, which slows it: read its
// figures as shares. A build without minification names the app's own
// functions (cd web && npx vite build --minify false, then go build).
// --under lists, with --profile, what the frames whose name starts with
// the text call (say "startUp").
import { parseArgs } from 'node:util'
import { join, dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { chromeFlags, startServer } from '../../e2e/harness.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values: opts, positionals } = parseArgs({
  allowPositionals: true,
  options: { bin: { type: 'string' }, profile: { type: 'boolean' }, under: { type: 'string' } },
})
const path = positionals[0] || '/'
const LONG_US = 12000
const RENDERING = ['ParseHTML', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC', 'v8.compileModule', 'v8.evaluateModule']

const server = await startServer({}, { bin: resolve(opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima')) })
const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
try {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true })
  const page = await ctx.newPage()
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'loading']
  if (opts.profile) categories.push('disabled-by-default-v8.cpu_profiler')
  await browser.startTracing(page, { categories })
  await page.goto(server.base + path)
  await page.waitForTimeout(5000)
  const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents
  report(events)
} finally {
  await browser.close()
  await server.stop()
}

function report(events) {
  // The page's main thread: the renderer's that parsed its HTML.
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && events.some((x) => x.pid === e.pid && x.tid === e.tid && x.name === 'ParseHTML'))
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur).sort((a, b) => a.ts - b.ts)
  const t0 = onMain[0].ts
  const { nodes, samples } = profileOf(events, main.pid)
  const frame = (n) => `${n.callFrame.functionName || '(anon)'} ${(n.callFrame.url || '').replace(/.*\//, '')}:${(n.callFrame.lineNumber ?? -1) + 1}`
  const share = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, v]) => `${k} ${Math.round((100 * v) / n)}%`).join('\n         ')
  let blocking = 0
  const tasks = onMain.filter((e) => e.name === 'RunTask')
  for (const t of tasks.filter((e) => e.dur > LONG_US)) {
    blocking += t.dur / 1000 - LONG_US / 1000
    const inside = new Map()
    for (const e of onMain) if (e.ts >= t.ts && e.ts + e.dur <= t.ts + t.dur && RENDERING.includes(e.name)) inside.set(e.name, (inside.get(e.name) || 0) + e.dur / 1000)
    const parts = [...inside].map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')
    console.log(`\ntask at ${((t.ts - t0) / 1000).toFixed(0)} ms: ${(t.dur / 1000).toFixed(1)} ms wall, ${((t.tdur ?? 0) / 1000).toFixed(1)} ms CPU${parts ? '; ' + parts : ''}`)
    const mine = samples.filter((s) => s.ts >= t.ts && s.ts <= t.ts + t.dur)
    if (!mine.length) continue
    const entry = new Map(), self = new Map(), incl = new Map(), under = new Map()
    for (const s of mine) {
      const chain = []
      for (let n = nodes.get(s.id); n; n = nodes.get(n.parent)) chain.push(frame(n))
      const top = chain.slice().reverse().filter((f) => !f.startsWith('(root)'))
      add(entry, top.slice(0, 3).join(' > '))
      add(self, chain[0])
      for (const f of new Set(chain)) if (!f.startsWith('(root)') && !f.startsWith('(program)')) add(incl, f)
      if (opts.under) {
        const at = chain.findIndex((f) => f.startsWith(opts.under))
        if (at >= 0) add(under, at === 0 ? '(itself)' : chain[at - 1])
      }
    }
    console.log('  entry: ' + share(entry, mine.length))
    console.log('  self:  ' + share(self, mine.length))
    console.log('  incl:  ' + share(incl, mine.length))
    if (under.size) console.log(`  under ${opts.under}: ` + share(under, mine.length))
  }
  const wall = tasks.reduce((a, e) => a + e.dur, 0) / 1000
  const cpu = tasks.reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000
  console.log(`\nmain thread: ${wall.toFixed(0)} ms in tasks (${cpu.toFixed(0)} ms CPU); past ${LONG_US / 1000} ms per task: ${blocking.toFixed(0)} ms (x4: Lighthouse's slowdown)`)
}

function add(m, k) {
  m.set(k, (m.get(k) || 0) + 1)
}

// profileOf reads the sampled profile the trace carries (ProfileChunk
// events): its call tree and each sample's time.
function profileOf(events, pid) {
  const nodes = new Map()
  const samples = []
  let at = 0
  for (const e of events.filter((e) => e.pid === pid && (e.name === 'Profile' || e.name === 'ProfileChunk')).sort((a, b) => a.ts - b.ts)) {
    if (e.name === 'Profile') {
      at = e.args.data.startTime
      continue
    }
    const cp = e.args.data.cpuProfile || {}
    for (const n of cp.nodes || []) nodes.set(n.id, n)
    const deltas = e.args.data.timeDeltas || []
    ;(cp.samples || []).forEach((id, i) => {
      at += deltas[i]
      samples.push({ ts: at, id })
    })
  }
  return { nodes, samples }
}
