// Paying, as a guest on an iPhone 13 (Chromium), against the real server
// and its sandbox payment provider: top up (tap a package -> the sandbox's
// hosted page -> 确认支付 -> the result page says paid -> the coins show on
// Mine), buy VIP with coins and watch a VIP video, buy the new-user card
// with money (its countdown ticking) and come back to the VIP centre, where
// the offer is gone and a second try is refused, buy a gold video from
// its paywall and it plays in full, and find it under the bought videos;
// buy a priced gallery and see all its pictures;
// a cancelled payment shows the failure state. The wallet pages are
// photographed light and dark and audited with axe in both.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

let server, phone, page
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer()
  phone = await launchPhone({ bypassCSP: true })
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

// api calls the server as the page's guest (its token from storage).
async function api(path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const headers = token ? { Authorization: `Bearer ${token}` } : {}
  const init = body ? { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : { headers }
  const env = await (await fetch(server.base + path, init)).json()
  assert.equal(env.code, 200, `${path}: ${env.msg}`)
  return env.data
}

async function audit(name, p = page) {
  const page = p
  await page.addStyleTag({ content: '*, *::before, *::after { animation-duration: 0s !important; transition-duration: 0s !important; }' })
  await page.addScriptTag({ path: axePath })
  const bad = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] })
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  })
  assert.deepEqual(bad, [], `${name}: serious accessibility violations`)
}

const coins = async () => (await api('/api/app/mine/wallet')).coins

// topUp pays one package through the sandbox as a user would.
async function topUp(pkgID) {
  await page.goto(server.base + '/mine/usercoinchongzhi')
  await page.locator(`[data-testid=package][data-id="${pkgID}"]`).click()
  await page.locator('[data-testid=paytype][data-code=sandbox]').check()
  await $('topup-pay').click()
  await page.waitForURL(/\/pay\/sandbox\//, { timeout: 15000 })
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/\/mine\/usercoinchongzhi\?orderNo=/, { timeout: 15000 })
  await page.locator('[data-testid=topup-result][data-outcome=success]').waitFor({ timeout: 15000 })
}

let vipProduct, goldVideo

test('a guest tops up through the sandbox and sees the coins on Mine', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await page.goto(server.base + '/mine')
  await $('wallet-card').waitFor()
  await page.locator('[data-testid=wallet-coins]', { hasText: '0' }).waitFor()
  await shot(page, 'wallet-01-mine')

  const packages = await api('/api/app/mine/currencys?type=1')
  assert.ok(packages.length > 0, 'the seed has coin packages')
  const products = await api('/api/app/vip/product')
  vipProduct = products.list.filter((p) => p.level === 1 && p.coins > 0 && !p.newUser).sort((a, b) => a.coins - b.coins)[0]
  assert.ok(vipProduct, 'the seed sells a VIP card for coins')
  // A gold video that is not VIP-only, so VIP does not open it.
  for (let id = 1; id <= 60 && !goldVideo; id++) {
    const env = await (await fetch(`${server.base}/api/app/vid/info?id=${id}`)).json()
    if (env.code === 200 && env.data.coins > 0 && env.data.vipLevel === 0) goldVideo = env.data
  }
  assert.ok(goldVideo, 'the seed has a gold video')
  // VIP, the gold video, a super VIP card with coupons, a gallery.
  const svip = products.list.find((p) => p.level === 2 && p.coupons > 0 && p.coins > 0)
  assert.ok(svip, 'the seed sells a super VIP card with coupons for coins')
  const need = vipProduct.coins + goldVideo.coins + svip.coins + 100

  await page.goto(server.base + '/mine/usercoinchongzhi')
  await $('package').first().waitFor()
  assert.equal(await $('package').count(), packages.length)
  await shot(page, 'wallet-02-topup')
  await audit('usercoinchongzhi')

  // The largest package, as often as it takes to afford both purchases.
  const big = [...packages].sort((a, b) => b.coins + b.bonus - (a.coins + a.bonus))[0]
  let have = 0
  for (let i = 0; i < 4 && have < need; i++) {
    await topUp(big.id)
    have += big.coins + big.bonus
    if (i === 0) {
      assert.match(await $('topup-credited').innerText(), new RegExp(String(big.coins + big.bonus)))
      await shot(page, 'wallet-03-result-paid')
      await audit('top-up result')
    }
  }
  assert.equal(await coins(), have, 'every paid order credited once: coins + bonus')
  await $('topup-back').click()
  await page.waitForURL(/\/mine\/usercoinchongzhi$|\/mine$/)
  await page.goto(server.base + '/mine')
  await page.locator('[data-testid=wallet-coins]', { hasText: String(have) }).waitFor({ timeout: 10000 })
})

test('a cancelled payment shows the failure and credits nothing', async () => {
  const before = await coins()
  const packages = await api('/api/app/mine/currencys?type=1')
  await page.goto(server.base + '/mine/usercoinchongzhi')
  await page.locator(`[data-testid=package][data-id="${packages[0].id}"]`).click()
  await $('topup-pay').click()
  await page.waitForURL(/\/pay\/sandbox\//, { timeout: 15000 })
  await page.getByRole('button', { name: '取消' }).click()
  await page.waitForURL(/\/mine\/usercoinchongzhi\?orderNo=/, { timeout: 15000 })
  await page.locator('[data-testid=topup-result][data-outcome=failed]').waitFor({ timeout: 15000 })
  await shot(page, 'wallet-04-result-cancelled')
  assert.equal(await coins(), before)
})

test('an order that is not the user\'s shows not found and is reported for operators', async () => {
  const reported = page.waitForRequest((r) => r.url().endsWith('/api/app/report/error') && r.method() === 'POST')
  await page.goto(server.base + '/mine/usercoinchongzhi?orderNo=P123456789')
  await page.locator('[data-testid=topup-result][data-outcome=notfound]').waitFor({ timeout: 15000 })
  const req = await reported
  const body = JSON.parse(req.postData())
  assert.equal(body.kind, 'payment')
  assert.equal(body.payid, 'P123456789')
  assert.equal((await req.response()).status(), 200)
})

test('buying VIP with coins, then a VIP video plays in full', async () => {
  const before = await coins()
  await page.goto(server.base + '/mine/vipcenter')
  await $('vip-status').waitFor()
  await shot(page, 'wallet-05-vipcenter')
  await audit('vipcenter')
  await page.locator(`[data-testid=vip-card][data-id="${vipProduct.id}"] [data-testid=vip-buy-coins]`).click()
  await $('vip-coins-sheet').waitFor()
  await page.locator('[data-testid=buy-balance]', { hasText: String(before) }).waitFor()
  await shot(page, 'wallet-06-vip-confirm')
  await $('buy-confirm').click()
  await $('vip-coins-sheet').waitFor({ state: 'detached' })
  await page.locator('[data-testid=vip-tier-1] strong').waitFor({ timeout: 10000 })
  assert.equal(await coins(), before - vipProduct.coins)
  const me = await api('/api/app/mine/info')
  assert.equal(me.vipLevel >= 1, true)

  // A VIP video now plays the full stream (no preview, no paywall).
  let vip
  for (let id = 1; id <= 60 && !vip; id++) {
    const env = await (await fetch(`${server.base}/api/app/vid/info?id=${id}`)).json()
    if (env.code === 200 && env.data.vipLevel === 1 && env.data.coins === 0) vip = env.data
  }
  assert.ok(vip, 'the seed has a VIP video')
  await page.goto(server.base + `/detail/${vip.id}`)
  const info = await api(`/api/app/vid/info?id=${vip.id}`)
  assert.equal(info.access.allowed, true)
  if (info.playback) {
    assert.equal(info.playback.preview, false)
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  }
  assert.equal(await $('paywall').count(), 0)
})

// rawCall calls the server as the page's guest and returns the envelope,
// whatever its code.
async function rawCall(path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const r = await fetch(server.base + path, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) })
  return { status: r.status, ...(await r.json()) }
}

test('the new-user VIP card paid with money: sandbox, result, back to the VIP centre; then it is gone', async () => {
  const tiro = await api('/api/app/vip/tiroCountdown')
  assert.equal(tiro.isNew, true, 'the guest is a new user')
  assert.ok(tiro.offer && tiro.secondsLeft > 0)
  assert.equal(tiro.used, false)
  const before = (await api('/api/app/vip/product')).tiers.vip
  await page.goto(server.base + '/mine/vipcenter')
  await $('vip-offer').waitFor()
  await shot(page, 'wallet-05b-vipcenter-offer')
  // The countdown ticks each second.
  const t0 = await $('vip-countdown').innerText()
  await page.waitForFunction((t) => document.querySelector('[data-testid=vip-countdown]')?.textContent !== t, t0, { timeout: 3000 })
  assert.match(await $('vip-countdown').innerText(), /^\d\d:\d\d:\d\d$/)
  await $('vip-offer').locator('[data-testid=vip-buy-money]').click()
  await $('paytype-sheet').waitFor()
  await shot(page, 'wallet-06b-vip-paytype')
  await $('pay-go').click()
  await page.waitForURL(/\/pay\/sandbox\/P\d+\?k=[0-9a-f]{32}$/, { timeout: 15000 })
  // The hosted page says it is a sandbox; its address without the order's
  // key opens nothing.
  await page.getByText('测试用支付页，不会产生真实扣款').waitFor()
  await shot(page, 'wallet-06c-sandbox-page')
  await audit('sandbox page')
  const bare = page.url().replace(/\?k=.*$/, '')
  const refused = await fetch(bare)
  assert.equal(refused.status, 403)
  const refusedPage = await refused.text()
  assert.match(refusedPage, /沙箱支付/)
  assert.doesNotMatch(refusedPage, /确认支付/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.locator('[data-testid=topup-result][data-outcome=success]').waitFor({ timeout: 15000 })
  assert.match(await $('topup-credited').innerText(), new RegExp(tiro.offer.name))
  await $('topup-back').click()
  await page.waitForURL(/\/mine\/vipcenter$/)
  const after = (await api('/api/app/vip/product')).tiers.vip
  assert.equal(Date.parse(after) - Date.parse(before), tiro.offer.days * 86400_000, 'the card extends the VIP tier by its days')

  // Once per account: the offer has left the VIP centre and the lists...
  const tiroRead = page.waitForResponse((r) => r.url().includes('/api/app/vip/tiroCountdown'))
  await page.goto(server.base + '/mine/vipcenter')
  await tiroRead
  await $('vip-cards').waitFor()
  await page.waitForTimeout(300) // the answer rendered
  assert.equal(await $('vip-offer').count(), 0, 'the new-user offer is gone once used')
  await shot(page, 'wallet-06d-vipcenter-offer-used')
  const again = await api('/api/app/vip/tiroCountdown')
  assert.equal(again.offer, null)
  assert.equal(again.used, true)
  assert.ok(!(await api('/api/app/vip/product')).list.some((p) => p.newUser), 'no new-user card listed')
  // ...and a second attempt through the API, with coins or with money, gets the tip.
  for (const [path, body] of [
    ['/api/app/vip/buy', { productID: tiro.offer.id, idempotencyKey: `e2e-nu-again-${Date.now()}` }],
    ['/api/app/mine/topay', { productType: 'vip', productID: tiro.offer.id, payType: 'sandbox', idempotencyKey: `e2e-nu-again2-${Date.now()}` }],
  ]) {
    const env = await rawCall(path, body)
    assert.equal(env.status, 409, `${path}: ${env.msg}`)
    assert.match(env.tip, /新人专享每个账号和每台设备仅限一次/)
  }
  assert.equal(Date.parse((await api('/api/app/vip/product')).tiers.vip), Date.parse(after), 'nothing more granted')
})

test('a gold video bought from its paywall plays at once and is listed under userbuy', async () => {
  const before = await coins()
  await page.goto(server.base + `/detail/${goldVideo.id}`)
  const info = await api(`/api/app/vid/info?id=${goldVideo.id}`)
  assert.equal(info.access.allowed, false)
  if (info.playback) {
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
    await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; v.playbackRate = 4; return v.play() })
  }
  await page.locator('[data-testid=paywall][data-reason=need_coins]').waitFor({ timeout: 30000 })
  await $('paywall-buy').click()
  await $('buy-sheet').waitFor()
  await page.locator('[data-testid=buy-balance]', { hasText: String(before) }).waitFor()
  await shot(page, 'wallet-07-buy-sheet')
  await audit('buy sheet')
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/buy'))
  await $('buy-confirm').click()
  assert.equal((await bought).status(), 200)
  await $('buy-sheet').waitFor({ state: 'detached' })
  await $('paywall').waitFor({ state: 'detached', timeout: 10000 })
  const after = await api(`/api/app/vid/info?id=${goldVideo.id}`)
  assert.equal(after.access.allowed, true)
  assert.equal(after.access.reason, 'bought')
  if (after.playback) {
    assert.equal(after.playback.preview, false)
    // It plays at once, without another tap: the full stream, past the preview's start.
    await page.waitForFunction(() => { const v = document.querySelector('video'); return v && !v.paused && v.currentTime > 0.3 }, null, { timeout: 20000 })
  }
  assert.equal(await coins(), before - goldVideo.coins)

  await page.goto(server.base + '/mine/userbuy')
  await page.locator(`[data-testid=bought][data-video-id="${goldVideo.id}"]`).waitFor()
  await shot(page, 'wallet-08-userbuy')
  await audit('userbuy')
})

test('a priced gallery bought from its paywall shows every picture', async () => {
  const before = await coins()
  await page.goto(server.base + '/galleryCategory')
  const card = page.locator('[data-testid=gallery-card][data-vip="0"]:not([data-coins="0"])').first()
  await card.waitFor({ timeout: 15000 })
  const id = Number(await card.getAttribute('data-gallery-id'))
  const price = Number(await card.getAttribute('data-coins'))
  await page.goto(server.base + `/gallery/${id}`)
  await page.locator('[data-testid=paywall][data-reason=need_coins]').waitFor()
  const locked = Number(await $('gallery-locked').getAttribute('data-locked'))
  assert.ok(locked > 0, 'pictures are locked before the purchase')
  await $('paywall-buy').click()
  await $('buy-sheet').waitFor()
  assert.equal(await $('buy-with-coupon').count(), 0, 'coupons buy videos only')
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/app/gallery/buy'))
  await $('buy-confirm').click()
  assert.equal((await bought).status(), 200)
  await $('gallery-locked').waitFor({ state: 'detached', timeout: 10000 })
  const info = await api(`/api/app/gallery/info?id=${id}`)
  assert.equal(info.access.reason, 'bought')
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=gallery-picture]').length === n, info.images.length)
  assert.equal(await coins(), before - price)
})

test('a super VIP card brings coupons; a gold video bought with one costs no coins', async () => {
  const products = await api('/api/app/vip/product')
  const svip = products.list.find((p) => p.level === 2 && p.coupons > 0 && p.coins > 0)
  await page.goto(server.base + '/mine/vipcenter?level=2')
  await page.locator(`[data-testid=vip-card][data-id="${svip.id}"] [data-testid=vip-buy-coins]`).click()
  await $('buy-confirm').click()
  await $('vip-coins-sheet').waitFor({ state: 'detached' })
  await page.locator('[data-testid=vip-tier-2] strong').waitFor({ timeout: 10000 })

  // The backpack: the card's coupons, unused.
  await page.goto(server.base + '/mine/backpack')
  await page.locator('[data-testid=coupon-count]', { hasText: `×${svip.coupons}` }).waitFor()
  assert.equal(await $('backpack-tab').count(), 3)
  await shot(page, 'wallet-09-backpack')
  await audit('backpack')

  // Another gold video: the sheet offers the coupon first.
  let other
  for (let id = 1; id <= 80 && !other; id++) {
    const env = await (await fetch(`${server.base}/api/app/vid/info?id=${id}`)).json()
    if (env.code === 200 && env.data.coins > 0 && env.data.vipLevel === 0 && id !== goldVideo.id) other = env.data
  }
  assert.ok(other, 'the seed has a second gold video')
  const before = await coins()
  await page.goto(server.base + `/detail/${other.id}`)
  const info = await api(`/api/app/vid/info?id=${other.id}`)
  if (info.playback) {
    await page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
    await page.evaluate(() => { const v = document.querySelector('video'); v.muted = true; v.playbackRate = 4; return v.play() })
  }
  await page.locator('[data-testid=paywall][data-reason=need_coins]').waitFor({ timeout: 30000 })
  await $('paywall-buy').click()
  await $('buy-with-coupon').waitFor()
  assert.equal(await $('buy-with-coupon').isChecked(), true, 'the coupon is chosen when there is one')
  await shot(page, 'wallet-09-buy-coupon')
  const bought = page.waitForResponse((r) => r.url().endsWith('/api/app/vid/buy'))
  await $('buy-confirm').click()
  const res = await bought
  assert.equal(res.status(), 200)
  assert.equal(JSON.parse(res.request().postData()).useCoupon, true)
  await $('paywall').waitFor({ state: 'detached', timeout: 10000 })
  assert.equal(await coins(), before, 'a coupon purchase moves no coins')
  await page.goto(server.base + '/mine/userbuy')
  await page.locator(`[data-testid=bought][data-video-id="${other.id}"][data-paid-with=coupon]`).waitFor()

  await page.goto(server.base + '/mine/backpack?tab=used')
  await page.locator('[data-testid=backpack-tab][data-tab=used][aria-selected=true]').waitFor()
  await page.locator('[data-testid=coupon-count]', { hasText: '×1' }).waitFor()
  await page.locator('[data-testid=backpack-tab][data-tab=unused]').click()
  await page.locator('[data-testid=coupon-count]', { hasText: `×${svip.coupons - 1}` }).waitFor()
  assert.doesNotMatch(page.url(), /tab=/)
})

test('Mine open in another tab follows a purchase made elsewhere (wallet.changed)', async () => {
  const token = await page.evaluate(() => localStorage.getItem('prima_token'))
  const other = await launchPhone()
  try {
    await other.page.goto(server.base + '/')
    await other.page.waitForURL(/\/home/, { timeout: 15000 })
    await signedIn(other.page) // its own guest first, so it cannot land over the one set below
    await other.page.evaluate((t) => localStorage.setItem('prima_token', t), token)
    await other.page.goto(server.base + '/mine')
    const before = await coins()
    await other.page.locator('[data-testid=wallet-coins]', { hasText: String(before) }).waitFor()
    // Give the realtime connection a moment to open, then buy from outside the page.
    await other.page.waitForTimeout(1500)
    let target
    for (let id = 1; id <= 120 && !target; id++) {
      const info = await api(`/api/app/vid/info?id=${id}`).catch(() => null)
      if (info && info.coins > 0 && info.vipLevel === 0 && !info.access.allowed && info.coins <= before) target = info
    }
    assert.ok(target, 'a gold video not bought yet')
    await api('/api/app/vid/buy', { id: target.id, useCoupon: false, idempotencyKey: `e2e-rt-${Date.now()}` })
    await other.page.locator('[data-testid=wallet-coins]', { hasText: String(before - target.coins) }).waitFor({ timeout: 10000 })
  } finally {
    await other.browser.close()
  }
})

test('the wallet pages in dark mode and at 320 px', async () => {
  const token = await page.evaluate(() => localStorage.getItem('prima_token'))
  for (const [width, colorScheme] of [[320, 'dark'], [430, 'light']]) {
    const p = await launchPhone({ width, colorScheme, bypassCSP: true })
    try {
      await p.page.goto(server.base + '/')
      await p.page.waitForURL(/\/home/, { timeout: 15000 })
      await signedIn(p.page) // its own guest first, so it cannot land over the one set below
      // The same guest as the journey: its token in this context's storage.
      await p.page.evaluate((t) => localStorage.setItem('prima_token', t), token)
      for (const [path, marker, name] of [
        ['/mine', 'wallet-card', 'mine'],
        ['/mine/vipcenter', 'vip-status', 'vipcenter'],
        ['/mine/usercoinchongzhi', 'package', 'topup'],
        ['/mine/backpack', 'backpack-tab', 'backpack'],
        ['/mine/userbuy', 'bought', 'userbuy'],
      ]) {
        await p.page.goto(server.base + path)
        await p.page.locator(`[data-testid=${marker}]`).first().waitFor()
        const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.ok(overflow <= 0, `${path}: no sideways scroll at ${width} px (${overflow})`)
        await shot(p.page, `wallet-10-${name}-${width}-${colorScheme}`)
        await audit(`${name} ${width} px ${colorScheme}`, p.page)
      }
      assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
    } finally {
      await p.browser.close()
    }
  }
})

test('no page errors on the way', () => {
  assert.deepEqual(phone.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
})
