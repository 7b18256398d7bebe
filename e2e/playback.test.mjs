// Real playback, as a guest on an iPhone 13 (Chromium): an operator attaches
// a transcoded clip to a free video and to a VIP one; the free video plays
// its full stream (hls.js fetched on demand, or the browser's own HLS),
// counts one play when it starts, and keeps its position for the next
// visit; the VIP video plays only its preview, which stops well before the
// clip's end, then shows the paywall. A VIP video whose clip is too short
// for a preview shows the paywall at once, and a VIP video of the demo
// plays its 10 s preview of a clip of a minute or more.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { root, startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'

let server, phone, page, tmp
let freeVideo, vipVideo, shortVip, demoVip
const bin = process.env.PRIMA_BIN || join(root, 'bin', 'prima')
const $ = (id) => page.locator(`[data-testid=${id}]`)

async function call(method, path, token, body) {
  const headers = { 'X-App-Client': 'devID=e2eplaybackdevice1772366400000;ver=1.1.3;dev=ios;h5=1' }
  if (token) headers.Authorization = `Bearer ${token}`
  let payload = body
  if (body && !(body instanceof FormData)) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const r = await fetch(server.base + path, { method, headers, body: payload })
  const env = await r.json()
  if (env.code !== 200) throw new Error(`${method} ${path}: ${r.status} ${env.tip} ${env.msg}`)
  return env.data
}

before(async () => {
  server = await startServer()
  tmp = mkdtempSync(join(tmpdir(), 'prima-clip-'))
  execFileSync(bin, ['admin', 'create', '-account', 'ops_e2e'], { env: server.env, input: 'secret12\n', stdio: ['pipe', 'ignore', 'inherit'] })
  // The operator uploads through the app (a phone-app token) and attaches
  // in the console (a console token: password + TOTP).
  const op = (await call('POST', '/api/app/mine/login/h5', null, { account: 'ops_e2e', passWord: 'secret12', sysType: 'ios' })).token
  const opConsole = await consoleToken(server.base, { account: 'ops_e2e', password: 'secret12' })
  // A 12 s clip (its preview: a third, 4 s) and a 3 s one (too short for a
  // preview of one whole 2 s segment).
  const upload = async (secs) => {
    const clip = join(tmp, `clip${secs}.mp4`)
    execFileSync('ffmpeg', ['-nostdin', '-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25', '-t', String(secs),
      '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', clip])
    const form = new FormData()
    form.append('file', new Blob([readFileSync(clip)], { type: 'video/mp4' }), 'clip.mp4')
    let asset = await call('POST', '/api/app/vid/uploadStatic', op, form)
    for (let i = 0; asset.state === 'processing' && i < 240; i++) {
      await new Promise((r) => setTimeout(r, 500))
      asset = await call('GET', `/api/app/vid/uploadStatic?id=${asset.id}`, op)
    }
    assert.equal(asset.state, 'ready', `the clip transcoded (${asset.error ?? ''})`)
    return asset
  }
  const [asset, short] = [await upload(12), await upload(3)]
  // The first free video and the first three VIP videos of the seed.
  const vips = []
  for (let id = 1; id <= 400 && !(freeVideo && vips.length === 3); id++) {
    const d = await call('GET', `/api/app/vid/info?id=${id}`).catch(() => null)
    if (!d) continue
    if (!freeVideo && d.vipLevel === 0 && d.coins === 0) freeVideo = d
    if (vips.length < 3 && d.vipLevel === 1 && d.coins === 0) vips.push(d)
  }
  ;[vipVideo, shortVip, demoVip] = vips
  for (const v of [freeVideo, vipVideo]) await call('POST', '/api/admin/videos/media', opConsole, { videoId: v.id, mediaId: asset.id })
  await call('POST', '/api/admin/videos/media', opConsole, { videoId: shortVip.id, mediaId: short.id })
  phone = await launchPhone()
  page = phone.page
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
  if (tmp) rmSync(tmp, { recursive: true, force: true })
})

test('a free video with media plays its full stream and counts one play when it starts', async () => {
  const hlsChunks = []
  page.on('request', (r) => { if (/\/assets\/hls[.-]/.test(r.url())) hlsChunks.push(r.url()) })
  const plays = []
  page.on('request', (r) => { if (r.url().endsWith('/api/app/vid/play')) plays.push(r.url()) })
  await page.goto(server.base + `/detail/${freeVideo.id}`)
  await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  const native = await page.evaluate(() => document.createElement('video').canPlayType('application/vnd.apple.mpegurl'))
  // hls.js comes only when the browser cannot play HLS itself, and only now.
  assert.equal(hlsChunks.length > 0, native === '', `hls.js chunk fetched: ${hlsChunks.length}, native HLS: '${native}'`)
  assert.equal(plays.length, 0, 'no play counted before playback starts')
  const counted = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/play') && r.status() === 200)
  await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; return v.play() })
  await counted
  await page.waitForFunction(() => document.querySelector('video').currentTime > 6, null, { timeout: 20000 })
  await page.locator('[data-testid=player-rate]').click()
  await page.locator('[data-testid=player-rate-option]', { hasText: '1.5x' }).click()
  assert.equal(await page.evaluate(() => document.querySelector('video').playbackRate), 1.5)
  await page.evaluate(() => document.querySelector('video').pause())
  await shot(page, 'video-08-playing')
  await page.locator('[data-testid=player-fill]').click()
  const box = await page.locator('[data-testid=player]').boundingBox()
  const viewport = await page.evaluate(() => [window.innerWidth, window.innerHeight])
  assert.deepEqual([box.x, box.y, box.width, box.height], [0, 0, ...viewport], 'fill mode covers the viewport')
  await shot(page, 'video-09-fill')
  await page.locator('[data-testid=player-fill]').click()
  assert.equal(plays.length, 1, 'one play for one opening')
})

test('the position is restored on the next visit', async () => {
  const saved = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_resume')))
  const entry = saved.find((e) => e[0] === freeVideo.id)
  assert.ok(entry && entry[1] >= 5, `position saved: ${JSON.stringify(saved)}`)
  await page.goto(server.base + '/home')
  await page.goto(server.base + `/detail/${freeVideo.id}`)
  await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  await page.waitForFunction((at) => document.querySelector('video').currentTime >= at - 1, entry[1], { timeout: 10000 })
})

// previewThenPaywall opens a refused video's detail, plays its preview
// (muted, fast) and checks that it stopped at the preview's length, well
// before the clip's end, and that the paywall then covers the player.
async function previewThenPaywall(id, previewS, clipS, shotName) {
  await page.goto(server.base + `/detail/${id}`)
  await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  assert.equal(await $('paywall').count(), 0, 'no paywall while the preview can play')
  assert.equal(await $('detail-preview').innerText(), `试看 ${previewS} 秒`)
  if (shotName) await shot(page, shotName + '-playing')
  await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; v.playbackRate = 4; return v.play() })
  await page.locator('[data-testid=paywall][data-reason=need_vip]').waitFor({ timeout: 30000 })
  assert.match(await $('paywall').innerText(), /试看已结束/)
  // What the player was given ends with the preview: the rest of the clip
  // was never in its playlist.
  const [at, length] = await page.evaluate(() => { const v = document.querySelector('video'); return [v.currentTime, v.duration] })
  assert.ok(length <= previewS + 0.2 && at <= previewS + 0.2, `the preview lasted ${length} s, stopped at ${at} s (preview ${previewS} s)`)
  assert.ok(at < clipS - 1, `stopped before the end of the ${clipS} s clip (at ${at} s)`)
  if (shotName) await shot(page, shotName)
}

test('a VIP video plays its preview, which stops before the end, then shows the paywall', async () => {
  const info = await call('GET', `/api/app/vid/info?id=${vipVideo.id}`)
  assert.equal(info.duration, 12)
  assert.equal(info.playback.preview, true)
  assert.equal(info.playback.previewMs, 4000, 'a third of 12 s in whole 2 s segments')
  assert.equal(info.paywall.previewMs, 4000)
  await previewThenPaywall(vipVideo.id, 4, 12, 'video-10-preview-ended')
})

test('a VIP video too short for a preview shows the paywall at once, with no player', async () => {
  const info = await call('GET', `/api/app/vid/info?id=${shortVip.id}`)
  assert.equal(info.duration, 3)
  assert.equal(info.playback, null, 'no preview of a 3 s clip')
  assert.equal(info.paywall.previewMs, 0)
  await page.goto(server.base + `/detail/${shortVip.id}`)
  await page.locator('[data-testid=paywall][data-reason=need_vip]').waitFor({ timeout: 10000 })
  assert.equal(await page.locator('[data-testid=player]').getAttribute('data-status'), 'nosource')
  assert.equal(await page.locator('video').count(), 0, 'nothing to play, no video element')
  assert.doesNotMatch(await $('paywall').innerText(), /试看已结束/)
  assert.equal(await $('detail-preview').count(), 0)
  await shot(page, 'video-12-too-short-for-preview')
})

test('a VIP video of the demo previews 10 s of a clip of a minute or more', async () => {
  const info = await call('GET', `/api/app/vid/info?id=${demoVip.id}`)
  assert.ok(info.duration >= 60, `the demo's VIP clip lasts ${info.duration} s`)
  assert.equal(info.playback.previewMs, 10000)
  await previewThenPaywall(demoVip.id, 10, info.duration, 'video-13-demo-vip-paywall')
})

test('a failing stream shows the error; retry signs a fresh URL and plays', async () => {
  let fail = true
  await page.route('**/master.m3u8', (route) => (fail ? route.fulfill({ status: 403, body: 'forbidden' }) : route.continue()))
  try {
    await page.goto(server.base + `/detail/${freeVideo.id}`)
    await page.locator('[data-testid=player-error]').waitFor({ timeout: 20000 })
    assert.match(await page.locator('[data-testid=player-error]').innerText(), /视频加载失败/)
    await shot(page, 'video-11-stream-error')
    fail = false
    const refetched = page.waitForResponse((r) => r.url().includes('/api/app/vid/info?'))
    await page.locator('[data-testid=player-retry]').click()
    await refetched
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  } finally {
    await page.unroute('**/master.m3u8')
  }
})

test('no page errors while playing', () => {
  assert.deepEqual(phone.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
})
