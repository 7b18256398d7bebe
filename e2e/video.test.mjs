// Watching videos, as a guest on an iPhone 13: home -> a video's detail
// (title, related, one play counted), like and favourite, and the video
// then under Mine in liked, favourites and history; an unknown id shows
// the not-found state; a VIP and a priced video show their paywall. The
// detail is photographed light and dark, at 320 and 430 px.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { root, startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'

let server, phone, page
let videoID, videoTitle
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer()
  phone = await launchPhone()
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

// api calls the server as the page's guest (its token from storage).
async function api(path) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const r = await fetch(server.base + path, { headers: token ? { Authorization: `Bearer ${token}` } : {} })
  return (await r.json()).data
}

test('a guest opens a video from home and sees its detail', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  const card = $('video-card').first()
  await card.waitFor()
  videoID = Number(await card.getAttribute('data-video-id'))
  const played = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/play') && r.status() === 200)
  await card.click()
  await page.waitForURL(new RegExp(`/detail/${videoID}$`))
  videoTitle = (await $('detail-title').innerText()).trim()
  assert.ok(videoTitle.length > 0, 'the title shows')
  const info = await api(`/api/app/vid/info?id=${videoID}`)
  assert.equal(videoTitle, info.title)
  // No media: the player says so (or the paywall covers it), and the play
  // is counted on open. A seeded demo clip counts when playback starts.
  if (info.playback == null) await $(info.access.allowed ? 'player-nosource' : 'paywall').waitFor()
  else {
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
    await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; return v.play() })
  }
  await played
  await $('detail-related').locator('[data-testid=video-card]').first().waitFor()
  assert.ok(info.related.length > 0, 'the seed gives the video related videos')
  assert.equal(await $('detail-related').locator('[data-testid=video-card]').count(), info.related.length)
})

test('like and favourite toggle at once and stick', async () => {
  const like = $('detail-like')
  const fav = $('detail-collect')
  assert.equal(await like.getAttribute('aria-pressed'), 'false')
  const liked = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/like'))
  await like.click()
  // Optimistic: pressed before the server has answered.
  await page.locator('[data-testid=detail-like][aria-pressed=true]').waitFor({ timeout: 1000 })
  assert.equal((await liked).status(), 200)
  const collected = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/collect'))
  await fav.click()
  assert.equal((await collected).status(), 200)
  await page.locator('[data-testid=detail-collect][aria-pressed=true]').waitFor()
  const info = await api(`/api/app/vid/info?id=${videoID}`)
  assert.equal(info.isLike, true)
  assert.equal(info.isCollect, true)
  await shot(page, 'video-01-detail')
})

// Share: no system share sheet in this browser, so the link to the detail
// page goes to the clipboard and a toast says so.
test('share copies the video\'s link', async () => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base })
  const hasShare = await page.evaluate(() => typeof navigator.share === 'function')
  if (hasShare) await page.evaluate(() => { navigator.share = undefined })
  await $('detail-share').click()
  await page.locator('.adm-toast-main', { hasText: '链接已复制' }).waitFor()
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), `${server.base}/detail/${videoID}`)
})

test('the report sheet lists the reasons and sends one', async () => {
  await $('detail-report').click()
  await $('report-reason').first().waitFor()
  assert.equal(await $('report-reason').count(), 6)
  await shot(page, 'video-02-report-sheet')
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/report'))
  await page.locator('[data-testid=report-reason][data-code=broken]').click()
  assert.equal((await sent).status(), 200)
  await $('report-sheet').waitFor({ state: 'detached' })
})

for (const [entry, kind] of [['userlike', 'like'], ['userfav', 'fav'], ['userbroswer', 'history']]) {
  test(`the video is under Mine: ${entry}`, async () => {
    await page.goto(server.base + '/mine')
    await $(`mine-entry-${entry}`).click()
    await page.waitForURL(new RegExp(`/mine/${entry}$`))
    await page.locator(`[data-testid=mine-videos][data-kind=${kind}]`).waitFor()
    const card = page.locator(`[data-testid=video-card][data-video-id="${videoID}"]`)
    await card.waitFor()
    await shot(page, `video-03-mine-${entry}`)
    await card.click()
    await page.waitForURL(new RegExp(`/detail/${videoID}$`))
    await $('detail-title').waitFor()
  })
}

test('bought videos say honestly there are none yet', async () => {
  await page.goto(server.base + '/mine/userbuy')
  await page.locator('[data-testid=mine-videos][data-kind=buy] [data-testid=state-empty]').waitFor()
  assert.match(await $('state-empty').innerText(), /还没有购买过视频/)
})

test('an unknown video shows the not-found state with a way home', async () => {
  await page.goto(server.base + '/detail/987654321')
  await $('detail-notfound').waitFor()
  assert.match(await $('detail-notfound').innerText(), /视频不存在/)
  await shot(page, 'video-04-notfound')
  await $('detail-home').click()
  await page.waitForURL(/\/home$/)
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/detail/abc')
  await $('detail-notfound').waitFor()
})

// findVideo scans the seeded ids for the first one whose detail matches.
async function findVideo(match) {
  for (let id = 1; id <= 400; id++) {
    const d = await api(`/api/app/vid/info?id=${id}`).catch(() => null)
    if (d && match(d)) return d
  }
  throw new Error('no seeded video matches')
}

test('a free video without media says honestly there is nothing to play yet', async () => {
  // The seed gives every video a demo clip, so an operator detaches one
  // (POST /api/admin/videos/media with mediaId 0) to make a video without media.
  const bin = process.env.PRIMA_BIN || join(root, 'bin', 'prima')
  execFileSync(bin, ['admin', 'create', '-account', 'ops_video'], { env: server.env, input: 'secret12\n', stdio: ['pipe', 'ignore', 'inherit'] })
  const post = async (path, token, body) => {
    const headers = { 'Content-Type': 'application/json' }
    if (token) headers.Authorization = `Bearer ${token}`
    const env = await (await fetch(server.base + path, { method: 'POST', headers, body: JSON.stringify(body) })).json()
    assert.equal(env.code, 200, `${path}: ${env.msg}`)
    return env.data
  }
  const op = await consoleToken(server.base, { account: 'ops_video', password: 'secret12' }) // the console: password + TOTP
  const withMedia = await findVideo((d) => d.access.allowed && d.playback != null)
  await post('/api/admin/videos/media', op, { videoId: withMedia.id, mediaId: 0 })
  const free = await findVideo((d) => d.access.allowed && d.playback == null)
  await page.goto(server.base + `/detail/${free.id}`)
  await $('player-nosource').waitFor()
  assert.match(await $('player-nosource').innerText(), /视频处理中或暂无播放源/)
  await shot(page, 'video-05-free-nosource')
})

// endPreview plays a locked video's preview through (muted, fast): the
// paywall covers the player once the preview ends. A video without media
// shows the paywall at once.
async function endPreview(d) {
  if (d.playback == null) return
  assert.equal(d.playback.preview, true)
  await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; v.playbackRate = 4; return v.play() })
}

test('a VIP video shows the paywall to a guest, with the way to VIP', async () => {
  const vip = await findVideo((d) => d.vipLevel === 1 && d.coins === 0)
  assert.equal(vip.access.allowed, false)
  await page.goto(server.base + `/detail/${vip.id}`)
  await endPreview(vip)
  await page.locator('[data-testid=paywall][data-reason=need_vip]').waitFor()
  assert.match(await $('paywall').innerText(), /开通VIP/)
  // The picture under the paywall is blurred and dimmed: the video's own
  // text (a title burned into the frame) must not read through the headline.
  const veil = await $('player-veil').evaluate((el) => {
    const cs = getComputedStyle(el)
    return { blur: cs.backdropFilter || cs.webkitBackdropFilter, bg: cs.backgroundColor }
  })
  assert.match(veil.blur, /blur\((1[6-9]|[2-9]\d)px\)/, `veil ${JSON.stringify(veil)}`)
  assert.ok(Number(veil.bg.match(/rgba\(0, 0, 0, ([\d.]+)\)/)?.[1] ?? 0) >= 0.7, `veil ${JSON.stringify(veil)}`)
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 844 })
    const fits = await page.evaluate(() => {
      const box = document.querySelector('[data-testid=paywall]').getBoundingClientRect()
      const stage = document.querySelector('[data-testid=player-veil]').getBoundingClientRect()
      return box.top >= stage.top && box.bottom <= stage.bottom && document.documentElement.scrollWidth <= innerWidth
    })
    assert.ok(fits, `the paywall fits its player at ${width} px`)
    await shot(page, `video-05-paywall-vip-${width}`)
  }
  await page.setViewportSize({ width: 390, height: 664 })
  await shot(page, 'video-05-paywall-vip')
  await $('paywall-vip').click()
  await page.waitForURL(/\/mine\/vipcenter$/)
})

test('a priced video shows its price; a guest without coins is sent to top up', async () => {
  const gold = await findVideo((d) => d.coins > 0)
  await page.goto(server.base + `/detail/${gold.id}`)
  await endPreview(gold)
  await page.locator('[data-testid=paywall][data-reason=need_coins]').waitFor()
  assert.match(await $('paywall-price').innerText(), new RegExp(String(gold.coins)))
  await $('paywall-buy').click()
  await $('buy-sheet').waitFor()
  await $('buy-short').waitFor()
  assert.match(await $('buy-short').innerText(), new RegExp(`还差 ${gold.coins} 金币`))
  assert.equal(await $('buy-confirm').count(), 0, 'no purchase is offered without the coins')
  await shot(page, 'video-06-paywall-coins')
  await $('buy-cancel').click()
  await $('buy-sheet').waitFor({ state: 'detached' })
})

test('the detail at 320 and 430 px, light and dark', async () => {
  for (const [width, colorScheme] of [[320, 'light'], [430, 'dark'], [390, 'dark']]) {
    const p = await launchPhone({ width, colorScheme })
    try {
      // A visitor without a session goes through splash first (spec §2).
      await p.page.goto(server.base + '/')
      await p.page.waitForURL(/\/home/, { timeout: 15000 })
      await signedIn(p.page) // home shows while the guest signs in
      await p.page.goto(server.base + `/detail/${videoID}`)
      await p.page.locator('[data-testid=detail-title]').waitFor()
      await p.page.locator('[data-testid=detail-related] [data-testid=video-card]').first().waitFor()
      const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 0, `no sideways scroll at ${width} px (${overflow})`)
      await shot(p.page, `video-07-detail-${width}-${colorScheme}`)
      assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
    } finally {
      await p.browser.close()
    }
  }
})

test('no page errors on the way', () => {
  // The not-found id answers 404 on purpose; the browser logs that.
  assert.deepEqual(phone.errors.filter((e) => !/401|Unauthorized|status of 4\d\d/.test(e)), [])
})
