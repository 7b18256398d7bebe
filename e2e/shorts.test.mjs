// Short videos as an iPhone in Chromium: an operator uploads four small
// vertical clips through the API and attaches them to the first four
// videos of the short-video feed; a visitor opens /shortvideo, the first
// clip plays muted by itself, three swipes up each bring the next clip
// playing with exactly one video playing at a time. Then home's banner
// (its click is counted) and the dark page in the dark theme.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { attachClips, call as apiCall, operatorSetup, shortFeedIds } from './media.mjs'

let server, phone, page, cdp
const feedIds = []
const $ = (id) => page.locator(`[data-testid=${id}]`)

const call = (method, path, opts) => apiCall(server.base, method, path, opts)

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  const feed = await shortFeedIds(server.base, 4)
  feedIds.push(...feed.ids)
  assert.equal(feedIds.length, 4, 'the seeded feed has four videos')
  await attachClips(server.base, feedIds)
  phone = await launchPhone()
  page = phone.page
  cdp = await phone.context.newCDPSession(page)
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
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
  await signedIn(page) // home shows while the guest signs in
  const plays = []
  page.on('request', (r) => r.url().includes('/api/app/vid/play') && r.method() === 'POST' && plays.push(JSON.parse(r.postData()).id))
  await $('tab-shortvideo').click()
  await $('shortvideo-page').waitFor()
  const s = await expectPlaying(feedIds[0])
  assert.equal(s.muted, true, 'autoplay starts muted')
  // Sent once the snap would be over (SETTLE_MS after playing), then never again.
  for (let i = 0; i < 40 && plays.length === 0; i++) await page.waitForTimeout(50)
  await page.waitForTimeout(500)
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

// A drag on home's content: horizontal changes channel, vertical scrolls.
async function drag(from, to) {
  const steps = 6
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] })
  for (let i = 1; i <= steps; i++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + ((to.x - from.x) * i) / steps, y: from.y + ((to.y - from.y) * i) / steps }] })
    await page.waitForTimeout(16)
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

test('a sideways swipe on home changes channel; a vertical one does not', async () => {
  await $('tab-home').click()
  await $('home-banner').waitFor()
  await $('video-card').first().waitFor()
  const selected = () => page.locator('[data-testid=home-module-tab][aria-selected=true]').getAttribute('data-tab')
  const first = await selected()
  await drag({ x: 200, y: 500 }, { x: 205, y: 300 })
  await page.waitForTimeout(300)
  assert.equal(await selected(), first, 'a vertical drag keeps the channel')
  await page.evaluate(() => window.scrollTo(0, 0))
  await drag({ x: 320, y: 500 }, { x: 80, y: 510 })
  await page.waitForFunction((first) => document.querySelector('[data-testid=home-module-tab][aria-selected=true]')?.getAttribute('data-tab') !== first, first)
  const second = await selected()
  await drag({ x: 80, y: 500 }, { x: 320, y: 505 })
  await page.waitForFunction((first) => document.querySelector('[data-testid=home-module-tab][aria-selected=true]')?.getAttribute('data-tab') === first, first)
  assert.notEqual(second, first)
  await page.evaluate(() => window.scrollTo(0, 0))
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

// A clip a user uploaded names them on its slide with a follow button: a
// guest is sent to sign in; a signed-in user follows (at once, and on the
// server), and the button then shows they do.
test('a user\'s clip names its uploader, and a signed-in viewer follows them from the slide', async () => {
  const login = (account, passWord) => call('POST', '/api/app/mine/login/h5', { body: { account, passWord, sysType: 'ios' } })
  const up = await login('vipdemo', 'vip123')
  const viewer = await login('demo', 'demo123')
  await attachClips(server.base, [feedIds[0]], ['purple'], up.token)
  const upUID = (await call('GET', '/api/app/mine/info', { token: up.token })).uid
  await call('POST', '/api/app/mine/follow', { token: viewer.token, body: { followUID: upUID, isFollow: false } })

  await page.goto(server.base + '/shortvideo')
  const slide = page.locator(`[data-testid=short-slide][data-video-id="${feedIds[0]}"]`)
  await slide.locator('[data-testid=short-uploader]').waitFor()
  assert.equal(await slide.locator('[data-testid=short-uploader]').getAttribute('href'), `/usercenter/${upUID}`)
  const follow = slide.locator('[data-testid=short-follow]')
  assert.equal(await follow.getAttribute('aria-pressed'), 'false')
  await follow.click()
  await page.waitForURL(/\/mine\/login/)

  await $('login-account').fill('demo')
  await $('login-password').fill('demo123')
  await $('login-submit').click()
  await page.waitForURL(/\/mine$/)
  await page.goto(server.base + '/shortvideo')
  await slide.locator('[data-testid=short-follow][aria-pressed=false]').waitFor()
  await slide.locator('[data-testid=short-follow]').click()
  await slide.locator('[data-testid=short-follow][aria-pressed=true]').waitFor({ timeout: 1000 })
  await shot(page, 'shorts-08-follow')
  let info
  for (let i = 0; i < 20; i++) {
    info = await call('GET', `/api/app/vid/info?id=${feedIds[0]}`, { token: viewer.token })
    if (info.uploader?.isFollow) break
    await new Promise((r) => setTimeout(r, 100))
  }
  assert.equal(info.uploader.isFollow, true, 'the follow reached the server')
  // The platform's own clips name nobody.
  const other = await call('GET', `/api/app/vid/info?id=${feedIds[1]}`, { token: viewer.token })
  assert.equal(other.uploader, null)
})

// A refused clip plays its preview (a third of the 12 s clip: 4 s), which
// stops there, and the paywall shows; with a clip too short for any
// preview (3 s) the paywall shows at once and the slide gets no source.
test('a VIP clip stops its preview before the end; one too short for a preview shows the paywall at once', async () => {
  const infos = await Promise.all(feedIds.map((id) => call('GET', `/api/app/vid/info?id=${id}`)))
  const i = infos.findIndex((d) => !d.access.allowed && d.vipLevel > 0)
  assert.ok(i >= 0, 'a VIP clip among the first four of the feed')
  const id = feedIds[i]
  assert.equal(infos[i].playback.previewMs, 4000)
  assert.equal(infos[i].paywall.previewMs, 4000)
  const slide = page.locator(`[data-testid=short-slide][data-video-id="${id}"]`)
  const openSlide = async () => {
    await page.goto(server.base + '/shortvideo')
    await page.locator('[data-testid=short-slide][data-role=play]').waitFor()
    for (let k = 0; k < i; k++) {
      await swipeUp()
      await page.locator(`[data-testid=short-slide][data-role=play][data-slot]`).waitFor()
    }
    await page.locator(`[data-testid=short-slide][data-role=play][data-video-id="${id}"]`).waitFor({ timeout: 10000 })
  }
  await openSlide()
  await slide.locator('[data-testid=short-preview]').waitFor({ timeout: 10000 })
  assert.equal(await slide.locator('[data-testid=short-preview]').innerText(), '试看 4 秒')
  await slide.locator('[data-testid=short-paywall][data-reason=need_vip]').waitFor({ timeout: 20000 })
  const [at, length] = await slide.locator('video').evaluate((v) => [v.currentTime, v.duration])
  assert.ok(length <= 4.2 && at <= 4.2, `the preview lasted ${length} s and stopped at ${at} s, not the clip's 12 s`)
  await shot(page, 'shorts-09-preview-ended')

  await attachClips(server.base, [id], ['gray'], undefined, 3)
  const short = await call('GET', `/api/app/vid/info?id=${id}`)
  assert.equal(short.playback, null, 'no preview of a 3 s clip')
  assert.equal(short.paywall.previewMs, 0)
  await openSlide()
  await slide.locator('[data-testid=short-paywall][data-reason=need_vip]').waitFor({ timeout: 10000 })
  assert.equal(await slide.locator('[data-testid=short-preview]').count(), 0)
  assert.equal(await slide.locator('video').evaluate((v) => v.getAttribute('src') || v.querySelector('source')?.src || ''), '', 'no source')
  await shot(page, 'shorts-10-too-short-for-preview')
})

// A VIP clip's preview ends: the paywall card sits on the last frame
// dimmed and blurred, so the clip's own text (a title or timecode burned
// into the frame) never reads through the card's headline.
test('a VIP clip ends its preview under a veil, with the paywall card on it', async () => {
  const mods = await call('GET', '/api/app/modules/list?moduleType=4')
  let sub
  for (const m of mods[0].subModules) {
    const l = await call('GET', `/api/app/vid/moduleVideo?subModuleID=${m.id}&sortType=0&pageNumber=1&pageSize=1&playTimeType=0&newsType=0`)
    if (l.list[0]?.vipLevel > 0) { sub = m.id; break }
  }
  assert.ok(sub, 'a short sub-module opens on a VIP clip')
  const ctx = await phone.browser.newContext({ ...devices['iPhone 13'], locale: 'zh-CN' })
  const p = await ctx.newPage()
  try {
    await p.goto(server.base + '/')
    await p.waitForURL(/\/home/, { timeout: 15000 })
    await signedIn(p) // home shows while the guest signs in
    await p.goto(`${server.base}/sourceshortvideo?id=${sub}`)
    await p.locator('[data-testid=short-slide][data-role=play] video').waitFor({ timeout: 15000 })
    await p.evaluate(() => { for (const v of document.querySelectorAll('video')) { v.muted = true; v.playbackRate = 4; v.play().catch(() => {}) } })
    await p.locator('[data-testid=short-paywall]').first().waitFor({ timeout: 30000 })
    const veil = await p.locator('[data-testid=short-veil]').first().evaluate((el) => {
      const cs = getComputedStyle(el)
      return { blur: cs.backdropFilter || cs.webkitBackdropFilter, bg: cs.backgroundColor, inset: [el.offsetWidth, el.parentElement.offsetWidth] }
    })
    assert.match(veil.blur, /blur\((1[6-9]|[2-9]\d)px\)/, JSON.stringify(veil))
    assert.equal(veil.inset[0], veil.inset[1], 'the veil covers the whole slide')
    await shot(p, 'shorts-paywall')
  } finally {
    await ctx.close()
  }
})

test('no script errors', () => {
  assert.deepEqual(phone.errors, [])
})
