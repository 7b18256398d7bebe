// The operator console's JavaScript and CSS per route, gzip bytes on the
// wire (Resource Timing's encodedBodySize), for a first visit with an empty
// HTTP cache: each route in a new context, signed in as an owner (made with
// `prima admin create`, enrolled through the API with a TOTP computed here),
// waiting for the page's table or cards, the network to be quiet and 1 s;
// first screen: from navigation to the page's table rows or cards drawn.
// The phone app's budget does not apply (the console is its own build);
// this says what each section costs an operator's first visit.
//
//   node console-js.mjs [--bin ../../bin/prima] [--json out.json]
import { writeFileSync } from 'node:fs'
import { createHmac } from 'node:crypto'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { chromeFlags, startServer } from '../../e2e/harness.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const { values: opts } = parseArgs({ options: { bin: { type: 'string' }, json: { type: 'string' } } })
const kb = (n) => (n / 1024).toFixed(1)
const OWNER = { account: 'bench_owner', password: 'Bench-pass-1' }

function base32(s) {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = 0
  let value = 0
  const out = []
  for (const c of s.replace(/[\s=]/g, '').toUpperCase()) {
    value = (value << 5) | abc.indexOf(c)
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

function totp(secret) {
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30000)))
  const h = createHmac('sha1', base32(secret)).update(msg).digest()
  const o = h[h.length - 1] & 15
  return String((h.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, '0')
}

async function post(base, path, body) {
  const r = await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { status: r.status, env: await r.json() }
}

const routes = [
  { path: '/login', ready: '[data-testid=login-account]', signedIn: false },
  { path: '/', ready: '[data-testid=dash-session]' },
  { path: '/audit', ready: '[data-testid=audit-table] .ant-table-row' },
  { path: '/people', ready: '[data-testid=people-query]' },
  { path: '/operators', ready: '[data-testid=operators-table] .ant-table-row' },
  { path: '/security', ready: '[data-testid=sessions-table] .ant-table-row' },
  { path: '/content/modules', ready: '[data-testid=modules-list]' },
  { path: '/content/videos', ready: '[data-testid=videos-table] .ant-table-row' },
  { path: '/content/ads', ready: '.ant-table' },
  { path: '/content/source', ready: '[data-testid=source-key]' },
  { path: '/people/feedback', ready: '[data-testid=fb-table]' },
  { path: '/moderation/queue', ready: '[data-testid=mod-queue-table]' },
  { path: '/moderation/words', ready: '[data-testid=mod-words]' },
  { path: '/stats', ready: '[data-testid=stats-chart-users] canvas' },
]

async function main() {
  const server = await startServer({}, {
    bin: resolve(opts.bin || process.env.PRIMA_BIN || join(here, '..', '..', 'bin', 'prima')),
    setup: (run) => run(['admin', 'create', '-account', OWNER.account, '-role', 'owner'], OWNER.password + '\n'),
  })
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
  const out = []
  try {
    const first = await post(server.base, '/api/admin/session', { account: OWNER.account, passWord: OWNER.password, code: '' })
    if (first.status !== 428) throw new Error('expected an enrolment: ' + JSON.stringify(first))
    const { ticket, secret } = first.env.data.enrol
    const enrolled = await post(server.base, '/api/admin/session/enrol', { ticket, code: totp(secret) })
    if (enrolled.status !== 200) throw new Error('enrol: ' + JSON.stringify(enrolled))
    const session = { token: enrolled.env.data.token, expiresAt: enrolled.env.data.expiresAt }
    for (const route of routes) {
      const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'zh-CN' })
      if (route.signedIn !== false) await ctx.addInitScript((s) => localStorage.setItem('prima_console_session', s), JSON.stringify(session))
      const page = await ctx.newPage()
      const t0 = Date.now()
      await page.goto(server.base + '/admin' + route.path)
      await page.locator(route.ready).first().waitFor({ timeout: 20000 })
      const ready = Date.now() - t0
      await page.waitForLoadState('networkidle')
      await page.waitForTimeout(1000)
      const entries = await page.evaluate(() =>
        performance.getEntriesByType('resource').filter((e) => /\.(m?js|css)$/.test(new URL(e.name).pathname)).map((e) => ({ path: new URL(e.name).pathname, wire: e.encodedBodySize })),
      )
      await ctx.close()
      const js = entries.filter((e) => e.path.endsWith('js')).reduce((a, e) => a + e.wire, 0)
      const css = entries.filter((e) => e.path.endsWith('css')).reduce((a, e) => a + e.wire, 0)
      out.push({ route: '/admin' + route.path, js, css, files: entries.length, ready })
    }
  } finally {
    await browser.close()
    await server.stop()
  }
  console.log('| route | JS gzip KB | CSS gzip KB | files | first screen ms |\n| --- | --- | --- | --- | --- |')
  for (const r of out) console.log(`| ${r.route} | ${kb(r.js)} | ${kb(r.css)} | ${r.files} | ${r.ready} |`)
  if (opts.json) writeFileSync(opts.json, JSON.stringify(out, null, 2))
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
