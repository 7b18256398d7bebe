// Profiles and follows, as two iPhones (two browsers) against the real
// server: A registers, edits the profile (a refused name first, then name,
// gender, bio) and sets a portrait (picked, cropped square, uploaded with
// progress); B opens A's page, follows (the button and the fans count
// change), sees A in its list; A's page and A's fans list show B with
// "follow back"; B unfollows and everything goes back; a guest who taps
// follow is sent to sign in. Every page is screenshotted light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { attachClips, call, operatorSetup, shortFeedIds } from './media.mjs'

const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'
let server, A, B
const failed = []

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  A = await launchPhone()
  B = await launchPhone()
  for (const [who, p] of [['A', A], ['B', B]]) {
    p.page.on('response', (r) => { if (r.status() >= 500) failed.push(`${who} ${r.status()} ${new URL(r.url()).pathname}`) })
  }
})

after(async () => {
  await A?.browser.close()
  await B?.browser.close()
  await server?.stop()
})

const $ = (p, id) => p.page.locator(`[data-testid=${id}]`)

async function both(p, name) {
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme })
    await shot(p.page, `people-${name}-${scheme}`)
  }
  await p.page.emulateMedia({ colorScheme: 'light' })
}

async function register(p, account) {
  await p.page.goto(server.base + '/')
  await p.page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p.page) // home shows while the guest signs in
  await p.page.goto(server.base + '/mine/register')
  await $(p, 'register-account').fill(account)
  await $(p, 'register-password').fill(PASSWORD)
  await $(p, 'register-confirm').fill(PASSWORD)
  await $(p, 'register-submit').click()
  await p.page.waitForURL(/\/mine$/, { timeout: 15000 })
  const token = await p.page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  p.uid = (await call(server.base, 'GET', '/api/app/mine/info', { token })).uid
  assert.ok(p.uid > 0)
}

test('two users register; Mine shows the counts row', async () => {
  await register(A, 'pa_' + stamp)
  await register(B, 'pb_' + stamp)
  await $(A, 'mine-counts').waitFor()
  await A.page.locator('[data-testid=mine-count-fans] b', { hasText: '0' }).waitFor()
  assert.equal(await $(A, 'mine-count-fans').getAttribute('href'), '/mine/userguanzhu?tab=fans')
  await both(A, 'mine')
})

test('A edits the profile: a reserved name is refused inline, then name, gender and bio are saved', async () => {
  const p = A.page
  await p.goto(server.base + '/myhome')
  await $(A, 'people-header').waitFor()
  await both(A, 'myhome-before')
  await $(A, 'people-edit').click()
  await p.waitForURL(/\/mine\/profile$/)
  await $(A, 'edit-name').fill('官方客服')
  await $(A, 'edit-save').click()
  await p.locator('[data-testid=edit-error]', { hasText: '保留词' }).waitFor()
  await both(A, 'edit-error')

  await $(A, 'edit-name').fill('爱丽丝' + stamp)
  await $(A, 'edit-gender-2').click()
  await $(A, 'edit-bio').fill('喜欢拍照，也喜欢旅行')
  const saved = p.waitForResponse((r) => r.url().endsWith('/api/app/mine/info') && r.request().method() === 'POST')
  await $(A, 'edit-save').click()
  assert.equal((await saved).status(), 200)
  await p.waitForURL(/\/myhome$/)
  await p.locator('[data-testid=people-name]', { hasText: '爱丽丝' + stamp }).waitFor()
  assert.equal(await $(A, 'people-bio').innerText(), '喜欢拍照，也喜欢旅行')
  assert.match(await $(A, 'people-gender').innerText(), /女/)
})

test('A sets a portrait: picked, cropped square, uploaded with progress', async () => {
  const p = A.page
  await p.goto(server.base + '/mine/profile')
  await $(A, 'edit-portrait').waitFor()
  // Any real picture will do: a screenshot of the page itself, 390 x 664.
  const picture = await p.screenshot({ type: 'jpeg', quality: 80 })
  await $(A, 'edit-file').setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: picture })
  await $(A, 'crop-sheet').waitFor()
  const box = await $(A, 'crop-canvas').boundingBox()
  await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
  await p.mouse.down()
  await p.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2, { steps: 4 })
  await p.mouse.up()
  await $(A, 'crop-zoom').fill('1.5')
  await both(A, 'crop')
  const uploaded = p.waitForResponse((r) => r.url().includes('/api/app/vid/uploadStatic') && r.request().method() === 'POST')
  const saved = p.waitForResponse((r) => r.url().endsWith('/api/app/mine/info') && r.request().method() === 'POST')
  await $(A, 'crop-use').click()
  assert.equal((await uploaded).status(), 200)
  const info = await (await saved).json()
  assert.equal(info.code, 200)
  assert.match(info.data.portrait, /^\/media\/covers\//)
  await p.locator(`[data-testid=edit-portrait] img[src$="${info.data.portrait}"]`).waitFor({ timeout: 10000 })
  await both(A, 'edit')
})

test('B opens A’s page and follows: the button and the fans count change', async () => {
  const p = B.page
  await p.goto(`${server.base}/usercenter/${A.uid}`)
  await p.locator('[data-testid=people-name]', { hasText: '爱丽丝' + stamp }).waitFor()
  await p.locator('[data-testid=people-fans-count]', { hasText: '0' }).waitFor()
  assert.equal(await $(B, 'people-message').getAttribute('href'), `/message/${A.uid}`)
  assert.equal(await $(B, 'people-follow').getAttribute('data-following'), '0')
  await both(B, 'usercenter')
  const followed = p.waitForResponse((r) => r.url().endsWith('/api/app/mine/follow'))
  await $(B, 'people-follow').click()
  await p.locator('[data-testid=people-follow][data-following="1"]', { hasText: '已关注' }).waitFor()
  assert.equal((await followed).status(), 200)
  await p.locator('[data-testid=people-fans-count]', { hasText: '1' }).waitFor()
  await both(B, 'usercenter-following')
  // The narrowest phone we support: the header and both buttons still fit.
  await p.setViewportSize({ width: 320, height: 640 })
  await shot(p, 'people-usercenter-320')
  const width = await p.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(width <= 320, `the page is ${width} px wide at 320`)
  await p.setViewportSize(devices['iPhone 13'].viewport)
  // B's own following list holds A.
  await p.goto(server.base + '/mine/userguanzhu?tab=follow')
  await p.locator(`[data-testid=people-row][data-uid="${A.uid}"]`).waitFor()
})

test('A sees B among the fans, on the page and in the list', async () => {
  const p = A.page
  await p.goto(server.base + '/myhome')
  await p.locator('[data-testid=people-fans-count]', { hasText: '1' }).waitFor()
  await both(A, 'myhome')
  await p.locator('[data-testid=people-fans-count]').click()
  await p.waitForURL(/\/mine\/userguanzhu\?tab=fans$/)
  const row = p.locator(`[data-testid=people-row][data-uid="${B.uid}"]`)
  await row.waitFor()
  assert.equal(await row.locator('[data-testid=people-follow]').innerText(), '回关')
  await both(A, 'fans')
  await $(A, 'tab-follow').click()
  await $(A, 'state-empty').waitFor()
  await both(A, 'following-empty')
})

test('B unfollows and everything goes back', async () => {
  const p = B.page
  await p.goto(`${server.base}/usercenter/${A.uid}`)
  await p.locator('[data-testid=people-follow][data-following="1"]').click()
  await p.locator('[data-testid=people-follow][data-following="0"]', { hasText: '关注' }).waitFor()
  await p.locator('[data-testid=people-fans-count]', { hasText: '0' }).waitFor()
  const ext = await call(server.base, 'GET', `/api/app/mine/getUserExtension?uid=${A.uid}`)
  assert.equal(ext.fansCount, 0)
})

test('someone’s 视频 tab lists their published videos, or says plainly they have none', async () => {
  // A's upload plays a published video of the catalogue (the operator
  // attaches it): that video is A's, on A's page.
  const token = await A.page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const { ids } = await shortFeedIds(server.base, 1)
  await attachClips(server.base, [ids[0]], ['purple'], token)
  const api = await call(server.base, 'GET', `/api/app/user/videos?uid=${A.uid}&pageNumber=1&pageSize=18`)
  assert.deepEqual(api.list.map((v) => v.id), [ids[0]])
  const p = B.page
  await p.goto(`${server.base}/usercenter/${A.uid}`)
  const card = p.locator(`[data-testid=people-videos] [data-testid=video-card][data-video-id="${ids[0]}"]`)
  await card.waitFor()
  assert.equal(await card.getAttribute('href'), `/detail/${ids[0]}`)
  assert.doesNotMatch(await p.locator('main').innerText(), /上线后|即将|敬请期待/)
  await both(B, 'usercenter-videos')
  // B has uploaded nothing: A sees that said plainly, no promise of a feature.
  await A.page.goto(`${server.base}/usercenter/${B.uid}`)
  const empty = A.page.locator('[role=tabpanel] [data-testid=state-empty]')
  await empty.waitFor()
  assert.match(await empty.innerText(), /TA 还没有发布视频/)
  assert.doesNotMatch(await A.page.locator('main').innerText(), /上线后|即将|敬请期待/)
  await both(A, 'usercenter-novideos')
})

test('a guest who taps follow is sent to sign in, and nothing is followed', async () => {
  const context = await A.browser.newContext({ ...devices['iPhone 13'], locale: 'zh-CN' })
  const p = await context.newPage()
  await p.goto(server.base + '/')
  await p.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p) // home shows while the guest signs in
  await p.goto(`${server.base}/usercenter/${A.uid}`)
  await p.locator('[data-testid=people-follow]').click()
  await p.waitForURL(/\/mine\/login$/)
  await context.close()
  const ext = await call(server.base, 'GET', `/api/app/mine/getUserExtension?uid=${A.uid}`)
  assert.equal(ext.fansCount, 0)
  assert.deepEqual(failed, [])
})
