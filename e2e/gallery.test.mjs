// Galleries, as a guest on an iPhone 13 (Chromium): the categories page and
// its tabs, a free gallery whose pictures load, the full-screen viewer
// (swipe to the next picture, double tap and pinch zoom, keys, close), the
// favourite toggle and the favourites page's galleries tab, a VIP gallery's 3 free pictures and paywall, the VIP
// list and the not-found state. Screenshots light and dark at 320 and 430 px.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

let server, phone, page
let freeID, freeCount
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
async function api(path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const headers = token ? { Authorization: `Bearer ${token}` } : {}
  const r = await fetch(server.base + path, body ? { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : { headers })
  return (await r.json()).data
}

// touch drives Chromium's touch input (pointer events of type touch) with
// one or two fingers, moving them in steps from `from` to `to`.
async function touch(fingersFrom, fingersTo, steps = 8) {
  const cdp = await page.context().newCDPSession(page)
  const at = (k) => fingersFrom.map((f, i) => ({ x: f.x + ((fingersTo[i].x - f.x) * k) / steps, y: f.y + ((fingersTo[i].y - f.y) * k) / steps, id: i }))
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) })
  for (let k = 1; k <= steps; k++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(k) })
    await page.waitForTimeout(16)
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
  await cdp.detach()
}

const viewerAttr = (name) => $('gallery-viewer').getAttribute(name)

test('galleryCategory shows the images sub-modules as tabs and their galleries', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/galleryCategory')
  await $('gallery-card').first().waitFor({ timeout: 15000 })
  const mods = await api('/api/app/modules/list?moduleType=3')
  const subs = mods.flatMap((m) => m.subModules)
  assert.ok(subs.length >= 1, 'the seed has image sub-modules')
  assert.equal(await $('gallery-tab').count(), mods.length + subs.length)
  assert.equal(await $('gallery-tab').first().getAttribute('aria-selected'), 'true')
  // The cover's placeholder paints before the picture: a BlurHash data URL.
  const bg = await $('gallery-card').first().locator('[data-phase]').evaluate((el) => el.style.backgroundImage)
  assert.match(bg, /data:image\/png/)
  await shot(page, 'gallery-01-category')

  // Another tab: the URL keeps it and the grid shows that sub-module's galleries.
  const tab = $('gallery-tab').nth(1)
  const key = await tab.getAttribute('data-tab')
  const listed = page.waitForResponse((r) => r.url().includes('/api/app/gallery/list?') && new URL(r.url()).searchParams.get('subModuleID') === key.slice(1))
  await tab.click()
  assert.equal((await listed).status(), 200)
  await page.locator(`[data-testid=gallery-tab][data-tab=${key}][aria-selected=true]`).waitFor()
  assert.match(page.url(), new RegExp(`tab=${key}`))
  const want = await api(`/api/app/gallery/list?subModuleID=${key.slice(1)}&pageSize=50`)
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=gallery-card]').length === n, want.list.length)
  const ids = await $('gallery-card').evaluateAll((els) => els.map((e) => Number(e.dataset.galleryId)))
  assert.deepEqual(ids, want.list.map((g) => g.id))
  await $('gallery-tab').first().click()
})

test('a free gallery: its pictures load, and favourite toggles at once', async () => {
  const card = page.locator('[data-testid=gallery-card][data-vip="0"][data-coins="0"]').first()
  await card.waitFor()
  freeID = Number(await card.getAttribute('data-gallery-id'))
  await card.click()
  await page.waitForURL(new RegExp(`/gallery/${freeID}$`))
  const info = await api(`/api/app/gallery/info?id=${freeID}`)
  freeCount = info.images.length
  assert.ok(freeCount >= 4, 'a seeded gallery has several pictures')
  assert.equal((await $('gallery-title').innerText()).trim(), info.title)
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid=gallery-picture]').length === n, freeCount)
  await page.waitForFunction(() => {
    const imgs = [...document.querySelectorAll('[data-testid=gallery-picture] img')].slice(0, 2)
    return imgs.length === 2 && imgs.every((i) => i.complete && i.naturalWidth > 0)
  }, null, { timeout: 15000 })
  assert.equal(await $('paywall').count(), 0)

  const fav = $('gallery-collect')
  assert.equal(await fav.getAttribute('aria-pressed'), 'false')
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/gallery/collect'))
  await fav.click()
  await page.locator('[data-testid=gallery-collect][aria-pressed=true]').waitFor({ timeout: 1000 })
  assert.equal((await sent).status(), 200)
  assert.equal((await api(`/api/app/gallery/info?id=${freeID}`)).isCollect, true)
  const mine = await api('/api/app/mine/collection?type=gallery')
  assert.ok(mine.list.some((g) => g.id === freeID), 'the gallery is in the favourites')
  await shot(page, 'gallery-02-free')
})

test('the favourite gallery is under Mine, in the favourites page\'s galleries tab', async () => {
  await page.goto(server.base + '/mine/userfav')
  await page.locator('[data-testid=mine-videos][data-kind=fav]').waitFor()
  await page.locator('[data-testid=fav-tab][data-tab=gallery]').click()
  await page.waitForURL(/\/mine\/userfav\?type=gallery$/)
  await page.locator(`[data-testid=mine-galleries] [data-testid=gallery-card][data-gallery-id="${freeID}"]`).waitFor()
  await page.locator('[data-testid=fav-tab][data-tab=gallery][aria-selected=true]').waitFor()
  await shot(page, 'gallery-07-userfav')
  await page.locator(`[data-testid=gallery-card][data-gallery-id="${freeID}"]`).click()
  await page.waitForURL(new RegExp(`/gallery/${freeID}$`))
  await page.locator('[data-testid=gallery-collect][aria-pressed=true]').waitFor()
})

test('the viewer swipes, zooms by double tap and pinch, and closes', async () => {
  await $('gallery-picture').first().click()
  await $('gallery-viewer').waitFor()
  assert.equal(await viewerAttr('data-index'), '0')
  assert.equal((await $('viewer-counter').innerText()).trim(), `1/${freeCount}`)
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.testid), 'viewer-close', 'focus moves into the dialog')
  await page.waitForFunction(() => {
    const i = document.querySelector('[data-testid=viewer-current] img')
    return i && i.complete && i.naturalWidth > 0
  }, null, { timeout: 15000 })
  const vw = page.viewportSize().width
  const y = page.viewportSize().height / 2

  // Swipe left: the next picture, moved by a transform (no scrolling).
  await touch([{ x: vw - 40, y }], [{ x: 40, y }])
  await page.locator('[data-testid=gallery-viewer][data-index="1"]').waitFor({ timeout: 3000 })
  assert.equal((await $('viewer-counter').innerText()).trim(), `2/${freeCount}`)
  // A short, slow drag springs back.
  await touch([{ x: vw / 2, y }], [{ x: vw / 2 - 30, y }], 20)
  await page.waitForTimeout(400)
  assert.equal(await viewerAttr('data-index'), '1')

  // Double tap zooms in, and again zooms out.
  await page.touchscreen.tap(vw / 2, y)
  await page.waitForTimeout(60)
  await page.touchscreen.tap(vw / 2, y)
  await page.locator('[data-testid=gallery-viewer][data-scale="2.50"]').waitFor({ timeout: 2000 })
  // Zoomed, a drag pans the picture instead of turning the page.
  await touch([{ x: vw / 2, y }], [{ x: vw / 2 + 150, y }])
  await page.waitForTimeout(350)
  assert.equal(await viewerAttr('data-index'), '1', 'a drag while zoomed pans')
  await page.waitForTimeout(350)
  await page.touchscreen.tap(vw / 2, y)
  await page.waitForTimeout(60)
  await page.touchscreen.tap(vw / 2, y)
  await page.locator('[data-testid=gallery-viewer][data-scale="1.00"]').waitFor({ timeout: 2000 })

  // Pinch: two fingers moving apart zoom in, never past 4.
  await touch(
    [{ x: vw / 2 - 40, y }, { x: vw / 2 + 40, y }],
    [{ x: vw / 2 - 150, y: y - 20 }, { x: vw / 2 + 150, y: y + 20 }],
  )
  const scale = Number(await viewerAttr('data-scale'))
  assert.ok(scale > 2 && scale <= 4, `pinch zoomed to ${scale}`)
  await shot(page, 'gallery-03-viewer-zoomed')

  // Keys on a desktop: arrows turn the page (and reset the zoom), Escape closes.
  await page.keyboard.press('ArrowLeft')
  await page.locator('[data-testid=gallery-viewer][data-index="0"][data-scale="1.00"]').waitFor()
  await page.keyboard.press('ArrowRight')
  await page.locator('[data-testid=gallery-viewer][data-index="1"]').waitFor()
  await shot(page, 'gallery-04-viewer')
  await page.keyboard.press('Escape')
  await $('gallery-viewer').waitFor({ state: 'detached' })
  await $('gallery-picture').first().click()
  await $('gallery-viewer').waitFor()
  const box = await $('viewer-close').boundingBox()
  assert.ok(box.width >= 44 && box.height >= 44, 'the close button is 44 px')
  assert.ok(await $('viewer-close').getAttribute('aria-label'))
  await $('viewer-close').click()
  await $('gallery-viewer').waitFor({ state: 'detached' })
})

test('a VIP gallery shows a guest 3 pictures, the rest blurred behind the paywall', async () => {
  const vip = await api('/api/app/gallery/vip?pageSize=50')
  const g = vip.list.find((x) => x.vipLevel === 1 && x.imageCount > 3)
  assert.ok(g, 'the seed has a VIP gallery of more than 3 pictures')
  await page.goto(server.base + `/gallery/${g.id}`)
  await $('paywall').waitFor({ timeout: 15000 })
  assert.equal(await $('gallery-picture').count(), 3)
  assert.equal(await $('paywall').getAttribute('data-reason'), 'need_vip')
  await $('paywall-vip').waitFor()
  assert.equal(Number(await $('gallery-locked').getAttribute('data-locked')), g.imageCount - 3)
  // The locked pictures have no URL: nothing but placeholders is drawn.
  assert.equal(await $('gallery-locked').locator('img').count(), 0)
  await $('gallery-locked').scrollIntoViewIfNeeded()
  await shot(page, 'gallery-05-vip-paywall')
})

test('galleryVip lists only member galleries; an unknown gallery is not found', async () => {
  await page.goto(server.base + '/galleryCategory')
  await $('gallery-vip-link').click()
  await page.waitForURL(/\/galleryVip$/)
  await page.locator('[data-testid=gallery-vip-page] [data-testid=gallery-card]').first().waitFor()
  const levels = await $('gallery-card').evaluateAll((els) => els.map((e) => Number(e.dataset.vip)))
  assert.ok(levels.length > 0 && levels.every((l) => l > 0), `levels ${levels}`)
  await shot(page, 'gallery-06-vip-list')
  await page.goto(server.base + '/gallery/99999999')
  await $('gallery-notfound').waitFor()
  await page.goto(server.base + '/gallery/abc')
  await $('gallery-notfound').waitFor()
})

test('the pages at 320 and 430 px, light and dark', async () => {
  for (const colorScheme of ['light', 'dark']) {
    for (const width of [320, 430]) {
      const p = await launchPhone({ width, colorScheme })
      try {
        await p.page.goto(server.base + '/')
        await p.page.waitForURL(/\/home/, { timeout: 15000 })
        await signedIn(p.page) // home shows while the guest signs in
        await p.page.goto(server.base + '/galleryCategory')
        await p.page.locator('[data-testid=gallery-card]').first().waitFor()
        await shot(p.page, `gallery-category-${colorScheme}-${width}`)
        const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.ok(overflow <= 0, `no sideways overflow at ${width} px (${overflow})`)
        await p.page.goto(server.base + `/gallery/${freeID}`)
        await p.page.locator('[data-testid=gallery-picture]').first().waitFor()
        await shot(p.page, `gallery-detail-${colorScheme}-${width}`)
        await p.page.locator('[data-testid=gallery-picture]').first().click()
        await p.page.locator('[data-testid=gallery-viewer]').waitFor()
        await shot(p.page, `gallery-viewer-${colorScheme}-${width}`)
        assert.deepEqual(p.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
      } finally {
        await p.browser.close()
      }
    }
  }
})

test('no page errors on the way', () => {
  assert.deepEqual(phone.errors.filter((e) => !/401|Unauthorized|status of 4\d\d/.test(e)), [])
})
