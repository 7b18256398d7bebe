// Short videos as an iPhone in Chromium: an operator uploads four small
// vertical clips through the API and attaches them to the first four
// videos of the short-video feed; a visitor opens /shortvideo, the first
// clip plays muted by itself, three swipes up each bring the next clip
// playing with exactly one video playing at a time. Then home's banner
// (its click is counted) and the dark page in the dark theme.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, launchPhone, shot } from './harness.mjs'

let server, phone, page, cdp, work
const feedIds = []
const $ = (id) => page.locator(`[data-testid=${id}]`)

async function call(method, path, { token, body, form } = {}) {
  const headers = { 'X-App-Client': 'devID=e2eshortsoperator01;ver=1.1.3;dev=ios;h5=1' }
  if (token) headers.Authorization = `Bearer ${token}`
  let payload
  if (form) payload = form
  else if (body) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const r = await fetch(server.base + path, { method, headers, body: payload })
  const env = await r.json()
  assert.equal(env.code, 200, `${method} ${path}: ${r.status} ${JSON.stringify(env)}`)
  return env.data
}

// makeClip renders a 3 s 360x640 clip of one colour with a tone.
function makeClip(colour) {
  const out = join(work, `${colour}.mp4`)
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=360x640:d=3`, '-f', 'lavfi', '-i', 'sine=d=3',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out])
  return out
}

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'prima-shorts-'))
  server = await startServer({}, { setup: (run) => run(['admin', 'create', '-account', 'ops_1'], 'secret12\n') })
  const op = await call('POST', '/api/app/mine/login/h5', { body: { account: 'ops_1', passWord: 'secret12', sysType: 'ios' } })
  const mods = await call('GET', '/api/app/modules/list?moduleType=4')
  const feed = await call('GET', `/api/app/vid/moduleVideo?moduleID=${mods[0].moduleID}&sortType=0&pageNumber=1&pageSize=10&playTimeType=0&newsType=0`)
  feedIds.push(...feed.list.slice(0, 4).map((v) => v.id))
  assert.equal(feedIds.length, 4, 'the seeded feed has four videos')
  const assets = []
  for (const colour of ['red', 'green', 'blue', 'yellow']) {
    const form = new FormData()
    form.append('file', new Blob([readFileSync(makeClip(colour))], { type: 'video/mp4' }), 'clip.mp4')
    assets.push((await call('POST', '/api/app/vid/uploadStatic', { token: op.token, form })).id)
  }
  const deadline = Date.now() + 90_000
  for (const id of assets) {
    for (;;) {
      const a = await call('GET', `/api/app/vid/uploadStatic?id=${id}`, { token: op.token })
      if (a.state === 'ready') break
      assert.notEqual(a.state, 'failed', `asset ${id} failed: ${a.error}`)
      assert.ok(Date.now() < deadline, `asset ${id} still ${a.state}`)
      await new Promise((r) => setTimeout(r, 300))
    }
  }
  for (let i = 0; i < 4; i++) await call('POST', '/api/admin/videos/media', { token: op.token, body: { videoId: feedIds[i], mediaId: assets[i] } })

  phone = await launchPhone()
  page = phone.page
  cdp = await phone.context.newCDPSession(page)
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
  if (work) rmSync(work, { recursive: true, force: true })
})

// playingState: which videos play, and the current slide's video id and time.
const playingState = () =>
  page.evaluate(() => {
    const vids = [...document.querySelectorAll('[data-testid=short-slide] video')]
    // A source is a src attribute or a <source> child (hls.js may use either).
    const src = (v) => v.getAttribute('src') || v.querySelector('source')?.src || ''
    const playing = vids.filter((v) => !v.paused && !v.ended && v.readyState > 2)
    const slide = document.querySelector('[data-testid=short-slide][data-role=play]')
    const cur = slide?.querySelector('video')
    return {
      playing: playing.length,
      playingIds: playing.map((v) => Number(v.closest('[data-testid=short-slide]').dataset.videoId)),
      currentId: Number(slide?.dataset.videoId),
      time: cur?.currentTime ?? -1,
      muted: cur?.muted,
      mounted: document.querySelectorAll('[data-testid=short-slide]').length,
      withSource: vids.filter((v) => src(v)).length,
      sources: vids.map((v) => `${v.closest('[data-testid=short-slide]').dataset.slot}:${v.closest('[data-testid=short-slide]').dataset.role}${src(v) ? ':src' : ''}`),
    }
  })

async function expectPlaying(id) {
  await page.waitForFunction(
    (id) => {
      const s = document.querySelector('[data-testid=short-slide][data-role=play]')
      const v = s?.querySelector('video')
      return Number(s?.dataset.videoId) === id && v && !v.paused && v.currentTime > 0.3
    },
    id,
    { timeout: 15000 },
  )
  const a = await playingState()
  await page.waitForTimeout(600)
  const b = await playingState()
  assert.equal(b.currentId, id, 'the current slide is the expected clip')
  assert.ok(b.time > a.time || b.time < 0.5, `currentTime advances (${a.time} -> ${b.time})`)
  assert.equal(b.playing, 1, `exactly one video plays (${JSON.stringify(b.playingIds)})`)
  assert.deepEqual(b.playingIds, [id])
  assert.ok(b.mounted >= 3 && b.mounted <= 5, `3 to 5 slides mounted (${b.mounted})`)
  assert.ok(b.withSource <= 3, `at most three videos hold a source (${JSON.stringify(b.sources)})`)
  return b
}

// swipeUp drags a finger from low to high on the feed, as touch events.
async function swipeUp() {
  const x = 190
  const points = [520, 470, 400, 330, 260, 200]
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: points[0] }] })
  for (const y of points.slice(1)) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] })
    await page.waitForTimeout(16)
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

test('a visitor reaches the short-video tab and the first clip plays, muted', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  const plays = []
  page.on('request', (r) => r.url().includes('/api/app/vid/play') && r.method() === 'POST' && plays.push(JSON.parse(r.postData()).id))
  await $('tab-shortvideo').click()
  await $('shortvideo-page').waitFor()
  const s = await expectPlaying(feedIds[0])
  assert.equal(s.muted, true, 'autoplay starts muted')
  await page.waitForTimeout(300)
  assert.deepEqual(plays, [feedIds[0]], 'vid/play sent once for the first clip')
  await shot(page, 'shorts-01-first')
  page.removeAllListeners('request')
})

test('three swipes up: each clip plays in turn, one at a time', async () => {
  for (let i = 1; i <= 3; i++) {
    await swipeUp()
    await expectPlaying(feedIds[i])
    if (i === 2) await shot(page, 'shorts-02-third')
  }
  assert.equal(await page.locator('[data-testid=short-feed]').getAttribute('data-index'), '3')
})

test('a tap unmutes; like is optimistic and pressed', async () => {
  await page.locator('[data-testid=short-slide][data-role=play] video').dispatchEvent('click')
  await page.locator('[data-testid=short-feed] [role=region]').click({ position: { x: 150, y: 300 } })
  await page.waitForFunction(() => document.querySelector('[data-testid=short-slide][data-role=play] video')?.muted === false)
  assert.equal(await $('short-unmute').count(), 0, 'the unmute hint is gone')
  const like = page.locator('[data-testid=short-slide][data-role=play] [data-testid=short-like]')
  assert.equal(await like.getAttribute('aria-pressed'), 'false')
  const box = await like.boundingBox()
  assert.ok(box.width >= 44 && box.height >= 44, 'like is at least 44 px')
  await like.click()
  await page.waitForFunction(() => document.querySelector('[data-testid=short-slide][data-role=play] [data-testid=short-like]')?.getAttribute('aria-pressed') === 'true')
  await shot(page, 'shorts-03-liked')
})

test('the home banner shows and a click sends ads/click and follows its link', async () => {
  await $('tab-home').click()
  await $('home-banner').waitFor()
  const clicked = page.waitForRequest((r) => r.url().endsWith('/api/app/ads/click') && r.method() === 'POST')
  await shot(page, 'shorts-04-home-banner')
  const first = $('home-banner-item').first()
  const adId = Number(await first.getAttribute('data-ad-id'))
  await first.click()
  const req = await clicked
  assert.deepEqual(JSON.parse(req.postData()), { id: adId })
  await page.waitForURL(/\/mine\/vipcenter$/)
})

test('/dark renders in the dark theme and leaving restores the light one', async () => {
  await page.goto(server.base + '/dark')
  await $('dark-page').waitFor()
  await page.locator('[data-testid=video-card]').first().waitFor()
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-prefers-color-scheme')), 'dark')
  const bg = await page.evaluate(() => getComputedStyle(document.querySelector('[data-testid=dark-page]')).backgroundColor)
  assert.equal(bg, 'rgb(28, 28, 30)', 'dark surface')
  await shot(page, 'shorts-05-dark')
  await $('tab-home').click()
  await $('home-page').waitFor()
  assert.equal(await page.evaluate(() => document.documentElement.getAttribute('data-prefers-color-scheme')), 'light')
})

test('/sourceshortvideo plays one source, /discover lists modules', async () => {
  await page.goto(server.base + '/discover')
  await $('discover-section').first().waitFor()
  await shot(page, 'shorts-06-discover')
  const mods = await call('GET', '/api/app/modules/list?moduleType=4')
  await page.goto(server.base + `/sourceshortvideo?moduleID=${mods[0].moduleID}`)
  await expectPlaying(feedIds[0])
  await shot(page, 'shorts-07-source')
})

test('no script errors', () => {
  assert.deepEqual(phone.errors, [])
})
