// Delivery lines with one line down: an operator lists two
// API lines, a dead one first (a closed port) and the live server second.
// An iPhone opening the app must still load home, settle on the live line,
// and report the dead one, which the operator then sees in the reports.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { startServer, launchPhone, freePort, shot, consoleToken, signedIn } from './harness.mjs'

async function call(base, method, path, body, token) {
  const headers = { Accept: 'application/json' }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  if (token) headers.Authorization = `Bearer ${token}`
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const env = await r.json()
  assert.equal(env.code, 200, `${method} ${path}: ${JSON.stringify(env)}`)
  return env.data
}

test('two API lines, one down: the app uses the live one and the dead one is reported', async () => {
  const server = await startServer()
  const dead = `http://127.0.0.1:${await freePort()}` // nothing listens there
  const phone = await launchPhone()
  try {
    // The first operator, made on the command line (password on stdin).
    execFileSync(server.bin, ['admin', 'create', '-account', 'ops_1'], { env: server.env, input: 'lines-e2e-pass\n', stdio: ['pipe', 'ignore', 'inherit'] })
    const token = await consoleToken(server.base, { account: 'ops_1', password: 'lines-e2e-pass' }) // the console: password + TOTP
    const set = await call(server.base, 'POST', '/api/admin/lines', { api: [dead, server.base] }, token)
    assert.deepEqual(set.api, [dead, server.base])
    const domains = await call(server.base, 'GET', '/api/app/ping/domain/h5')
    assert.deepEqual(domains.api, [dead, server.base])

    const { page } = phone
    const apiHosts = new Set()
    page.on('request', (r) => {
      const u = new URL(r.url())
      if (u.pathname.startsWith('/api/') && u.pathname !== '/api/app/ping/check') apiHosts.add(u.origin)
    })
    await page.goto(server.base + '/')
    await page.waitForURL(/\/home/, { timeout: 15000 })
    await signedIn(page) // home shows while the guest signs in
    await page.locator('[data-testid=video-card]').first().waitFor({ timeout: 15000 })

    // The choice is persisted (prima_ storage): the live line for the API,
    // and this server for media (no media line was set).
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('prima_config') || '{}')?.state?.lines != null, null, { timeout: 10000 })
    const lines = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_config')).state.lines)
    assert.equal(lines.api, server.base)
    assert.equal(lines.image, server.base)
    // Every API call went to the live line; the dead one only got its check.
    assert.deepEqual([...apiHosts], [server.base])

    // The dead line is reported once, with the spec's fields, and the
    // operator sees it at the top of the failing lines.
    let reports
    for (let i = 0; i < 50; i++) {
      reports = await call(server.base, 'GET', '/api/admin/reports?kind=line', undefined, token)
      if (reports.total > 0) break
      await new Promise((r) => setTimeout(r, 200))
    }
    assert.equal(reports.total, 1, JSON.stringify(reports))
    const [r] = reports.list
    assert.equal(r.kind, 'line')
    assert.equal(r.dev, 'ios')
    assert.equal(r.ip, '127.0.0.1')
    assert.ok(r.appv)
    assert.equal(r.detail.domain[dead], 'network')
    assert.equal(Object.keys(r.detail.domain).length, 1, 'only the dead line is reported')
    assert.equal(reports.failingLines[0].line, dead)
    assert.equal(reports.failingLines[0].reports, 1)

    await shot(page, '60-lines-one-down')
  } finally {
    await phone.browser.close()
    await server.stop()
  }
})

// Two video lines, the first down: the app races them, keeps the live one
// and plays from it, on the detail page (the browser's own HLS here) and in
// the short-video feed (hls.js, which fetches across origins: the server
// answers CORS for media to a page on one of its lines). The live line is
// this same server under another origin name (localhost for 127.0.0.1).
test('two video lines, one down: videos play from the live one', async () => {
  const server = await startServer()
  const live = `http://localhost:${new URL(server.base).port}`
  const dead = `http://127.0.0.1:${await freePort()}`
  const phone = await launchPhone()
  try {
    execFileSync(server.bin, ['admin', 'create', '-account', 'ops_1'], { env: server.env, input: 'lines-e2e-pass\n', stdio: ['pipe', 'ignore', 'inherit'] })
    const token = await consoleToken(server.base, { account: 'ops_1', password: 'lines-e2e-pass' }) // the console: password + TOTP
    await call(server.base, 'POST', '/api/admin/lines', { api: [server.base], video: [dead, live] }, token)
    let free
    for (let id = 1; id <= 400 && !free; id++) {
      const r = await fetch(`${server.base}/api/app/vid/info?id=${id}`)
      const d = (await r.json()).data
      if (d && d.vipLevel === 0 && d.coins === 0 && d.playback?.url) free = d
    }
    assert.ok(free, 'the seed has a free video with a stream')

    const { page } = phone
    const media = []
    page.on('request', (r) => { if (/\.(m3u8|m4s|ts|mp4)(\?|$)/.test(new URL(r.url()).pathname)) media.push(new URL(r.url()).origin) })
    await page.goto(server.base + '/')
    await page.waitForURL(/\/home/, { timeout: 15000 })
    await signedIn(page) // home shows while the guest signs in
    await page.waitForFunction(() => JSON.parse(localStorage.getItem('prima_config') || '{}')?.state?.lines?.video != null, null, { timeout: 10000 })
    assert.equal(await page.evaluate(() => JSON.parse(localStorage.getItem('prima_config')).state.lines.video), live)

    await page.goto(`${server.base}/detail/${free.id}`)
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
    const played = await page.locator('[data-testid=player] video').evaluate(async (v) => {
      v.muted = true
      await v.play()
      const t0 = performance.now()
      while (v.currentTime <= 0 && performance.now() - t0 < 10000) await new Promise((r) => setTimeout(r, 100))
      return { t: v.currentTime, src: v.currentSrc }
    })
    assert.ok(played.t > 0, `the detail video played (${JSON.stringify(played)})`)
    assert.ok(media.length > 0 && media.every((o) => o === live), `detail media from the live line: ${[...new Set(media)]}`)

    media.length = 0
    await page.goto(server.base + '/shortvideo')
    await page.waitForFunction(() => {
      const v = document.querySelector('[data-testid=short-slide][data-role=play] video')
      return v && !v.paused && v.currentTime > 0
    }, null, { timeout: 20000 })
    assert.ok(media.length > 0 && media.every((o) => o === live), `short media from the live line: ${[...new Set(media)]}`)
    await shot(page, '61-video-line')
  } finally {
    await phone.browser.close()
    await server.stop()
  }
})
