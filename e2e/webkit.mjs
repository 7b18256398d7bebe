// A real WebKit for the e2e run: Debian's WebKitGTK MiniBrowser, driven
// through WebKitWebDriver (W3C WebDriver over plain HTTP) under Xvfb. It is
// the engine of iPhone Safari, so a syntax or API WebKit lacks shows up here
// and not in Chromium. What it cannot be is an iPhone: no touch events, no
// native HLS, a desktop GTK window sized to a phone with an iPhone UA.
import { spawn } from 'node:child_process'
import { mkdtempSync, mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import http from 'node:http'
import zlib from 'node:zlib'
import { artifacts, freePort } from './harness.mjs'

export const webkitArtifacts = join(artifacts, 'webkit')
const miniBrowser = process.env.MINIBROWSER || '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'
export const iPhoneUA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1'

// MiniBrowser's own header bar gives its window a minimum width of 447 px,
// wider than a phone. This GTK stylesheet (read from XDG_CONFIG_HOME) shrinks
// the browser's chrome, not the page, so the window can be 390 px wide.
const gtkCSS = `headerbar, headerbar *, toolbar, toolbar *, entry, button, box {
  min-width: 0; min-height: 0; padding: 0; margin: 0; border-width: 0;
  font-size: 1px; -gtk-icon-transform: scale(0.01);
}
`

// Every process this module starts, so a crash or an early exit of the test
// run still kills them (process groups: the driver's MiniBrowser and its web
// processes go with it).
const live = new Set()
process.on('exit', () => {
  for (const p of live) killGroup(p)
})

function killGroup(p) {
  if (p.exitCode !== null || p.signalCode !== null) return
  try { process.kill(-p.pid, 'SIGKILL') } catch { try { p.kill('SIGKILL') } catch { /* gone */ } }
}

function startGroup(cmd, args, opts) {
  const p = spawn(cmd, args, { ...opts, detached: true })
  live.add(p)
  p.once('exit', () => live.delete(p))
  return p
}

async function stopGroup(p) {
  if (!p || p.exitCode !== null || p.signalCode !== null) return
  const gone = new Promise((r) => p.once('exit', r))
  try { process.kill(-p.pid, 'SIGTERM') } catch { /* already gone */ }
  const t = setTimeout(() => killGroup(p), 3000)
  await gone
  clearTimeout(t)
}

// startXvfb lets Xvfb choose a free display itself (-displayfd) and resolves
// with its number once it accepts clients.
async function startXvfb() {
  const x = startGroup('Xvfb', ['-displayfd', '1', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let err = ''
  x.stderr.on('data', (d) => { err += d })
  const display = await new Promise((resolve, reject) => {
    let out = ''
    const t = setTimeout(() => reject(new Error('Xvfb did not report a display: ' + err)), 10000)
    x.stdout.on('data', (d) => {
      out += d
      if (out.includes('\n')) { clearTimeout(t); resolve(out.trim()) }
    })
    x.once('exit', (c) => { clearTimeout(t); reject(new Error(`Xvfb exited ${c}: ${err}`)) })
  })
  x.stderr.resume()
  return { proc: x, display: ':' + display }
}

async function waitReady(url, proc, what) {
  const deadline = Date.now() + 15000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`${what} exited with ${proc.exitCode}`)
    try {
      const r = await fetch(url)
      if (r.ok && (await r.json()).value?.ready) return
    } catch { /* not up yet */ }
    if (Date.now() > deadline) throw new Error(`${what} did not become ready`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

// browserGone reports whether err says the session's browser is no longer
// there (it crashed), rather than that a page misbehaved.
export function browserGone(err) {
  return err instanceof WebDriverError && /invalid session id|unknown error/.test(err.message)
}

export class WebDriverError extends Error {
  constructor(cmd, status, value) {
    super(`${cmd}: ${status} ${value?.error ?? ''} ${value?.message ?? ''}`.trim())
    this.error = value?.error
  }
}

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

// launchWebKit starts Xvfb, WebKitWebDriver and one MiniBrowser session with
// a phone-sized viewport (390x844 by default) and an iPhone user agent, on a
// fresh profile. close() ends the session and kills every process; call it
// in a finally.
export async function launchWebKit({ width = 390, height = 844, userAgent = iPhoneUA } = {}) {
  if (!existsSync(miniBrowser)) throw new Error(`no MiniBrowser at ${miniBrowser}: apt-get install webkit2gtk-driver xvfb (.ci/run does)`)
  const profile = mkdtempSync(join(tmpdir(), 'prima-webkit-'))
  mkdirSync(join(profile, 'config', 'gtk-3.0'), { recursive: true })
  writeFileSync(join(profile, 'config', 'gtk-3.0', 'gtk.css'), gtkCSS)
  let xvfb, driver
  const wk = {
    session: null,
    async close() {
      if (this.session) {
        await this.session.delete().catch(() => {})
        this.session = null
      }
      await stopGroup(driver)
      await stopGroup(xvfb?.proc)
      rmSync(profile, { recursive: true, force: true })
    },
  }
  try {
    xvfb = await startXvfb()
    const port = await freePort()
    driver = startGroup('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DISPLAY: xvfb.display,
        // A fresh profile each run: no local storage or cookies carried over.
        HOME: profile,
        XDG_CONFIG_HOME: join(profile, 'config'),
        XDG_CACHE_HOME: join(profile, 'cache'),
        XDG_DATA_HOME: join(profile, 'data'),
        // No accessibility bus in a headless run; without this GTK waits on it.
        NO_AT_BRIDGE: '1',
      },
    })
    driver.stderr.resume()
    const endpoint = `http://127.0.0.1:${port}`
    await waitReady(endpoint + '/status', driver, 'WebKitWebDriver')
    const open = async () => {
      const session = await Session.open(endpoint, {
        browserName: 'MiniBrowser',
        // WebKit's default page-load timeout is five minutes.
        timeouts: { pageLoad: 30000, script: 30000, implicit: 0 },
        'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation', `--user-agent=${userAgent}`] },
      })
      await session.setViewport(width, height)
      return session
    }
    wk.session = await open()
    // restart replaces a session whose browser has gone (WebKitGTK's
    // MiniBrowser can crash tearing down a playing video on a loaded
    // machine); the driver stays. Callers retry what they were doing once.
    wk.restart = async () => {
      await wk.session?.delete().catch(() => {})
      wk.session = await open()
      return wk.session
    }
    return wk
  } catch (e) {
    await wk.close()
    throw e
  }
}

// Session is a W3C WebDriver session: the few commands the tests use, and
// waits built on them.
export class Session {
  constructor(endpoint, id) {
    this.base = `${endpoint}/session/${id}`
  }

  static async open(endpoint, alwaysMatch) {
    const r = await fetch(endpoint + '/session', { method: 'POST', body: JSON.stringify({ capabilities: { alwaysMatch } }) })
    const body = await r.json()
    if (!r.ok) throw new WebDriverError('new session', r.status, body.value)
    return new Session(endpoint, body.value.sessionId)
  }

  async cmd(method, path, body) {
    // A backstop: a hung browser fails the test instead of stalling the run.
    const r = await fetch(this.base + path, { method, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(60000) })
    const json = await r.json().catch(() => ({}))
    if (!r.ok) throw new WebDriverError(`${method} ${path}`, r.status, json.value)
    return json.value
  }

  delete() { return this.cmd('DELETE', '') }

  // setViewport sizes the window so the page itself gets width x height,
  // whatever the browser's chrome takes.
  async setViewport(width, height) {
    // The page sees a new size a moment after the window gets it, so each
    // step waits for the viewport to settle.
    const settled = async () => {
      let prev = ''
      for (let i = 0; i < 50; i++) {
        await sleep(100)
        const v = await this.execute('return [innerWidth, innerHeight]')
        if (v.join() === prev) return v
        prev = v.join()
      }
      return prev.split(',').map(Number)
    }
    let rect = await this.cmd('POST', '/window/rect', { x: 0, y: 0, width, height })
    let [w, h] = await settled()
    for (let i = 0; i < 3 && (w !== width || h !== height); i++) {
      rect = await this.cmd('POST', '/window/rect', { x: 0, y: 0, width: rect.width + width - w, height: rect.height + height - h })
      ;[w, h] = await settled()
    }
    if (w !== width || h !== height) throw new Error(`viewport is ${w}x${h}, wanted ${width}x${height}`)
  }

  navigate(url) { return this.cmd('POST', '/url', { url }) }
  url() { return this.cmd('GET', '/url') }

  execute(script, ...args) { return this.cmd('POST', '/execute/sync', { script, args }) }

  async find(css) {
    const v = await this.cmd('POST', '/element', { using: 'css selector', value: css })
    return new Element(this, v[ELEMENT])
  }

  async findAll(css) {
    const v = await this.cmd('POST', '/elements', { using: 'css selector', value: css })
    return v.map((e) => new Element(this, e[ELEMENT]))
  }

  // waitFor polls fn until it returns something truthy, and returns it.
  async waitFor(fn, { timeout = 15000, what = 'condition' } = {}) {
    const deadline = Date.now() + timeout
    let last
    for (;;) {
      try {
        const v = await fn()
        if (v) return v
      } catch (e) {
        if (!(e instanceof WebDriverError)) throw e
        last = e
      }
      if (Date.now() > deadline) throw new Error(`timed out after ${timeout} ms waiting for ${what}${last ? ` (last: ${last.message})` : ''}`)
      await sleep(100)
    }
  }

  // waitForElement waits until css matches a displayed element.
  waitForElement(css, opts = {}) {
    return this.waitFor(async () => {
      const els = await this.findAll(css)
      for (const el of els) if (await el.displayed()) return el
      return null
    }, { what: css, ...opts })
  }

  waitForURL(re, opts = {}) {
    return this.waitFor(async () => re.test(await this.url()), { what: `URL ${re}`, ...opts })
  }

  waitForScript(script, opts = {}) {
    return this.waitFor(() => this.execute(script), { what: script, ...opts })
  }

  async screenshot(name) {
    mkdirSync(webkitArtifacts, { recursive: true })
    const png = await this.cmd('GET', '/screenshot')
    writeFileSync(join(webkitArtifacts, name + '.png'), Buffer.from(png, 'base64'))
  }
}

// Key codes of the WebDriver spec, for sendKeys.
export const Keys = { BACKSPACE: '\uE003', END: '\uE010' }

export class Element {
  constructor(session, id) {
    this.s = session
    this.id = id
    this.path = `/element/${id}`
  }

  // click scrolls the element to the middle of the screen first, as a user
  // does: WebDriver only scrolls it just into view, where the fixed tab bar
  // can cover it, and then refuses the click as intercepted. While something
  // passing covers it (a dialog fading out, a toast) or it is not ready for
  // input yet, it retries for a few seconds, as playwright's click does.
  async click({ timeout = 5000 } = {}) {
    const deadline = Date.now() + timeout
    for (;;) {
      try {
        await this.s.execute("arguments[0].scrollIntoView({ block: 'center', inline: 'nearest' })", { [ELEMENT]: this.id })
        return await this.s.cmd('POST', this.path + '/click', {})
      } catch (e) {
        const passing = e instanceof WebDriverError && (e.error === 'element click intercepted' || e.error === 'element not interactable')
        if (!passing || Date.now() > deadline) throw e
        await sleep(100)
      }
    }
  }
  text() { return this.s.cmd('GET', this.path + '/text') }
  attr(name) { return this.s.cmd('GET', `${this.path}/attribute/${name}`) }
  displayed() { return this.s.cmd('GET', this.path + '/displayed') }
  sendKeys(text) { return this.s.cmd('POST', this.path + '/value', { text }) }

  prop(name) { return this.s.cmd('GET', `${this.path}/property/${name}`) }

  // fill replaces the field's value by typing, as a user does (delete what
  // is there, type), so React sees every input event. (WebKit's driver keeps
  // Control held after a Control+A chord, so select-all cannot be used.)
  async fill(text) {
    const old = String((await this.prop('value')) ?? '')
    await this.sendKeys(Keys.END + Keys.BACKSPACE.repeat(old.length) + text)
  }
}

// The error capture. The app's CSP allows only same-origin script, and a
// script injected after load would miss the errors that matter most (a
// chunk WebKit cannot parse fails before any test code runs). So the tests
// reach the server through this proxy, which adds one same-origin classic
// script at the top of every HTML page; it runs before the app's module
// scripts and records uncaught errors, unhandled rejections, console.error
// (React logs the errors its boundaries catch there) and scripts or styles
// that fail to load into window.__e2eErrors.
const captureJS = `(() => {
  const errs = (window.__e2eErrors = [])
  const str = (v) => (v && v.stack) ? String(v.stack).split('\\n').slice(0, 3).join(' | ') : String(v)
  addEventListener('error', (e) => {
    const t = e.target
    if (t && t !== window && (t.tagName === 'SCRIPT' || t.tagName === 'LINK')) {
      errs.push('failed to load ' + (t.src || t.href))
    } else if (e instanceof ErrorEvent) {
      errs.push('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno + ':' + e.colno)
    }
  }, true)
  addEventListener('unhandledrejection', (e) => errs.push('unhandledrejection: ' + str(e.reason)))
  const ce = console.error
  console.error = (...a) => { errs.push('console.error: ' + a.map(str).join(' ')); ce.apply(console, a) }
})()
`
const capturePath = '/__e2e/capture.js'
const captureTag = `<script src="${capturePath}"></script>`

// startCaptureProxy serves upstream (a base URL) on a loopback port with the
// capture script added. Its own test page /__e2e/broken loads a module that
// does not parse, so a test can prove the capture sees such an error.
export async function startCaptureProxy(upstream) {
  const up = new URL(upstream)
  const srv = http.createServer((req, res) => {
    if (req.url === capturePath) {
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' })
      return res.end(captureJS)
    }
    if (req.url === '/__e2e/broken') {
      res.writeHead(200, { 'Content-Type': 'text/html' })
      return res.end(`<!doctype html><html><head>${captureTag}<script type="module" src="/__e2e/broken.js"></script></head><body><div id="root"></div></body></html>`)
    }
    if (req.url === '/__e2e/broken.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript' })
      return res.end('const a = ;\n')
    }
    const headers = { ...req.headers, host: up.host }
    const wantsHTML = /text\/html/.test(req.headers.accept ?? '')
    if (wantsHTML) delete headers['accept-encoding']
    const pr = http.request({ host: up.hostname, port: up.port, method: req.method, path: req.url, headers }, (ur) => {
      if (!/text\/html/.test(ur.headers['content-type'] ?? '')) {
        res.writeHead(ur.statusCode, ur.headers)
        return ur.pipe(res)
      }
      const chunks = []
      ur.on('data', (c) => chunks.push(c))
      ur.on('end', () => {
        let body = Buffer.concat(chunks)
        if (ur.headers['content-encoding'] === 'gzip') body = zlib.gunzipSync(body)
        const html = body.toString('utf8').replace(/<head[^>]*>/i, (m) => m + captureTag)
        const h = { ...ur.headers }
        delete h['content-encoding']
        delete h['content-length']
        delete h.etag
        res.writeHead(ur.statusCode, h)
        res.end(html)
      })
    })
    pr.on('error', (e) => { res.writeHead(502); res.end(String(e)) })
    req.pipe(pr)
  })
  const port = await freePort()
  await new Promise((r) => srv.listen(port, '127.0.0.1', r))
  return {
    base: `http://127.0.0.1:${port}`,
    stop: () => new Promise((r) => { srv.closeAllConnections(); srv.close(r) }),
  }
}

// pageErrors reads what the capture recorded on the current page. A page
// without the capture fails loudly rather than reporting no errors.
export async function pageErrors(session) {
  const errs = await session.execute('return window.__e2eErrors ?? null')
  if (errs === null) throw new Error('the error capture is not on this page (load it through startCaptureProxy)')
  return errs
}
