// The e2e harness: the real bin/prima on a temporary data dir (seeded, SQLite
// by default), and Debian's Chromium driven by playwright-core as an iPhone.
import { spawn, execFileSync } from 'node:child_process'
import { createHmac } from 'node:crypto'
import { mkdtempSync, mkdirSync, rmSync, statSync, existsSync, cpSync, renameSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import net from 'node:net'
import http from 'node:http'
import { chromium, devices } from 'playwright-core'

const here = dirname(fileURLToPath(import.meta.url))
export const root = join(here, '..')
export const artifacts = join(here, 'artifacts')
const defaultBin = process.env.PRIMA_BIN || join(root, 'bin', 'prima')

export const chromeFlags = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
]

export function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer()
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address()
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

// seed fills data with the demo catalogue. A seed takes seconds and every
// test file starts a server or two, so the first seed of a binary (by path,
// size and modification time) is kept as a template under the temp dir and
// later servers start from a copy of it. Only the default SQLite store in
// the data dir is templated: a database URL, a secret or a public URL (the
// seed writes links with it) makes each server seed its own.
function seed(bin, env, data) {
  const own = ['PRIMA_DATABASE_URL', 'PRIMA_SECRET', 'PRIMA_PUBLIC_URL'].some((k) => env[k])
  const st = statSync(bin)
  const template = join(tmpdir(), `prima-e2e-seed-${st.size}-${Math.floor(st.mtimeMs)}`)
  if (!own && existsSync(template)) {
    cpSync(template, data, { recursive: true })
    return
  }
  execFileSync(bin, ['seed'], { env, stdio: ['ignore', 'ignore', 'inherit'] })
  if (own) return
  // Copy, then rename into place: a concurrent file sees the whole template
  // or none (a lost race leaves the other's in place).
  const tmp = mkdtempSync(template + '-')
  cpSync(data, tmp, { recursive: true })
  try { renameSync(tmp, template) } catch { rmSync(tmp, { recursive: true, force: true }) }
  // Templates of binaries rebuilt since are left behind; clear those a day old.
  for (const name of readdirSync(tmpdir())) {
    const dir = join(tmpdir(), name)
    if (name.startsWith('prima-e2e-seed-') && dir !== template && Date.now() - statSync(dir).mtimeMs > 86400e3) rmSync(dir, { recursive: true, force: true })
  }
}

// startServer seeds a fresh data dir and serves it with bin (bin/prima by
// default), the payment sandbox on (the tests pay through it); stop() kills
// the server and removes the data. setup(run) runs between seeding and
// serving: run(args, input) calls bin with the same environment (e.g.
// `admin create` for an operator).
export async function startServer(env = {}, { bin = defaultBin, setup } = {}) {
  const data = mkdtempSync(join(tmpdir(), 'prima-e2e-'))
  // A test that must know the address first (PRIMA_PUBLIC_URL for a payment
  // gateway's notices) passes PRIMA_LISTEN itself.
  const port = env.PRIMA_LISTEN ? Number(env.PRIMA_LISTEN.split(':').pop()) : await freePort()
  const e = { ...process.env, PRIMA_DATA_DIR: data, PRIMA_LISTEN: `127.0.0.1:${port}`, PRIMA_LOG_LEVEL: 'warn', PRIMA_PAY_SANDBOX: '1', ...env }
  seed(bin, e, data)
  if (setup) await setup((args, input) => execFileSync(bin, args, { env: e, input, stdio: ['pipe', 'ignore', 'inherit'] }))
  const proc = spawn(bin, ['serve'], { env: e, stdio: ['ignore', 'inherit', 'inherit'] })
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 15000
  for (;;) {
    try {
      const r = await fetch(base + '/api/app/ping/check')
      if (r.ok) break
    } catch { /* not up yet */ }
    if (Date.now() > deadline) { proc.kill(); throw new Error(`${bin} did not start`) }
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    base,
    env: e, // for a second prima command on the same data (prima admin create)
    bin,
    async stop() {
      proc.kill('SIGTERM')
      await new Promise((r) => proc.once('exit', r))
      rmSync(data, { recursive: true, force: true })
    },
  }
}

// launchPhone opens an iPhone 13 context; width overrides the viewport width
// (320 and 430 are the narrowest and widest phones we support). bypassCSP
// lets a test inject a script of its own (the accessibility audit).
export async function launchPhone({ width, colorScheme = 'light', bypassCSP = false } = {}) {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
  const device = { ...devices['iPhone 13'] }
  if (width) device.viewport = { ...device.viewport, width }
  const context = await browser.newContext({ ...device, colorScheme, bypassCSP, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()) })
  return { browser, context, page, errors }
}

// signedIn waits until the page holds a session token. A first visit shows
// its page while the guest signs in (web/src/app/RootLayout.tsx), so
// reaching /home no longer means the token is there.
export async function signedIn(page, timeout = 15000) {
  await page.waitForFunction(() => !!localStorage.getItem('prima_token'), null, { timeout })
}

// launchDesktop opens a plain desktop Chromium context: the platform is pc.
export async function launchDesktop({ colorScheme = 'light', bypassCSP = false } = {}) {
  const browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme, bypassCSP, locale: 'zh-CN' })
  return { browser, context, page: await context.newPage() }
}

// shot saves a screenshot once the images in view have loaded and faded in
// and the tab bar's colour transition is over, so it shows what a user sees.
export async function shot(page, name) {
  mkdirSync(artifacts, { recursive: true })
  await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
  await page.waitForTimeout(500)
  await page.screenshot({ path: join(artifacts, name + '.png') })
}

// landingServer stands in for an operator's own site, the target of the
// gate's redirect.
export async function landingServer() {
  const port = await freePort()
  const srv = http.createServer((req, res) => { res.setHeader('Content-Type', 'text/html'); res.end('<title>landing</title><h1>landing</h1>') })
  await new Promise((r) => srv.listen(port, '127.0.0.1', r))
  return { url: `http://127.0.0.1:${port}/landing`, stop: () => new Promise((r) => srv.close(r)) }
}

// totp is the RFC 6238 code (HMAC-SHA-1, 6 digits, 30 s steps) of a base32
// secret at time at (ms): what an operator's authenticator app shows.
export function totp(secret, at = Date.now()) {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const c of secret.replace(/=+$/, '').toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, '0')
  const key = Buffer.from(bits.match(/.{8}/g).map((b) => parseInt(b, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 1000 / 30)))
  const mac = createHmac('sha1', key).update(counter).digest()
  const o = mac[mac.length - 1] & 0xf
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1e6).padStart(6, '0')
}

// consoleSessions keeps, per server and operator account, the console
// token and the TOTP secret (an authenticator app's memory), the last time
// step whose code was used (a code works once) and when a code was last
// entered (step-up lasts 5 minutes).
const consoleSessions = new Map()

// nextCode is a code the server has not seen from this operator: the
// current step's, or the next one's when the current one was used (the
// server takes one step either side).
async function nextCode(known) {
  for (;;) {
    const now = Math.floor(Date.now() / 30000)
    const step = Math.max(now, (known.lastStep ?? 0) + 1)
    if (step <= now + 1) {
      known.lastStep = step
      known.codeAt = Date.now()
      return totp(known.secret, step * 30000)
    }
    await new Promise((r) => setTimeout(r, 1000))
  }
}

// consoleToken signs an operator (made by `prima admin create`) in to the
// operator console the way a person does, and returns the console token
// that opens /api/admin (a phone-app token does not). The first sign-in
// answers 428 with an enrolment ticket and the TOTP secret; the code is
// computed from the secret and POST /api/admin/session/enrol answers the
// token. Later calls for the same server and account reuse the session,
// stepping it up with a fresh code when the last one is over 4 minutes old
// (step-up routes need one from the last 5), or signing in again when the
// session ended.
export async function consoleToken(base, { account, password }) {
  const key = `${base}|${account.toLowerCase()}`
  const known = consoleSessions.get(key)
  const post = async (path, body, token) => {
    const headers = { 'Content-Type': 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    const r = await fetch(base + path, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: r.status, env: await r.json() }
  }
  if (known?.token) {
    if (Date.now() - known.codeAt < 4 * 60_000) return known.token
    const r = await post('/api/admin/session/stepup', { code: await nextCode(known) }, known.token)
    if (r.status === 200) return known.token
    if (r.status !== 401) throw new Error(`console step-up of ${account}: ${r.status} ${JSON.stringify(r.env)}`)
  }
  if (known?.secret) {
    const r = await post('/api/admin/session', { account, passWord: password, code: await nextCode(known) })
    if (r.status !== 200) throw new Error(`console sign-in of ${account}: ${r.status} ${JSON.stringify(r.env)}`)
    known.token = r.env.data.token
    return known.token
  }
  const first = await post('/api/admin/session', { account, passWord: password, code: '' })
  if (first.status !== 428) throw new Error(`console sign-in of ${account}: ${first.status} ${JSON.stringify(first.env)}`)
  const { ticket, secret } = first.env.data.enrol
  const fresh = { secret }
  const done = await post('/api/admin/session/enrol', { ticket, code: await nextCode(fresh) })
  if (done.status !== 200) throw new Error(`console enrolment of ${account}: ${done.status} ${JSON.stringify(done.env)}`)
  consoleSessions.set(key, { ...fresh, token: done.env.data.token, recoveryCodes: done.env.data.recoveryCodes })
  return done.env.data.token
}
