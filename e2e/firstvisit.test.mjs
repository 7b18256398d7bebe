// A first visit and the routes around it, as an iPhone 13 (Chromium).
//
// The first screen does not wait for the guest sign-in: a new visitor at /
// sees home, and one opening a shared /detail/{id} the video's poster and
// title, drawn from the public answers the page carries while the guest
// signs in (the sign-in is held back here with page.route); calls that are
// personal wait and go with the token once it is here. A sign-in that
// fails (offline, refused) leaves the visitor on splash with the reason and
// a retry, which brings them to the page they opened.
//
// Shared links: a browser with no session that opens a video's link
// (/detail/{id}), a post's (/cdetail/{id}) or an invitation to register
// (/mine/register?ic=CODE) lands where the link points, with its query,
// never showing splash or home on the way; the invitation's code binds
// the new guest to the inviter and shows on the form. Nothing a link or
// the history state carries can send the visit to another site.
//
// Offline on a tab not visited yet: the tab's code cannot download, the tab
// bar stays, the offline state shows with 重试; 重试 offline loads nothing
// and keeps the document (no reload into the browser's offline page); back
// online, 重试 (or the online event by itself) brings the page, styled, in
// the same document.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

let server, phone

before(async () => {
  server = await startServer()
  phone = await launchPhone()
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

async function api(method, path, { token, body } = {}) {
  const headers = { 'Content-Type': 'application/json' }
  if (token) headers.Authorization = `Bearer ${token}`
  const r = await fetch(server.base + path, { method, headers, body: body ? JSON.stringify(body) : undefined })
  const j = await r.json()
  assert.equal(j.code, 200, `${method} ${path}: ${j.tip || j.msg}`)
  return j.data
}

// fresh is a browser as a friend has it: no storage, no cookies, a new
// device id; it records page errors.
async function fresh({ colorScheme = 'light' } = {}) {
  const context = await phone.browser.newContext({ ...devices['iPhone 13'], colorScheme, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  const $ = (id) => page.locator(`[data-testid=${id}]`)
  return { context, page, errors, $ }
}

const tokenOf = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))

// holdSignIn holds the page's guest sign-in until release() is called, and
// records every API call the page makes: path, whether it carried a token,
// and whether the sign-in had answered yet.
async function holdSignIn(page) {
  let release
  const released = new Promise((r) => (release = r))
  let answered = false
  const calls = []
  page.on('request', (r) => {
    const u = new URL(r.url())
    if (u.pathname.startsWith('/api/')) calls.push({ path: u.pathname, token: !!r.headers().authorization, afterSignIn: answered })
  })
  await page.route('**/api/app/mine/login', async (route) => {
    await released
    await route.continue()
    answered = true
  })
  return { release, calls }
}

// The calls whose answer is the same for everyone (marked public in the web
// app): the only ones that may go before the token is here. The sign-in
// itself never carries one.
const PUBLIC = new Set([
  '/api/app/vid/source', '/api/app/modules/list', '/api/app/modules/announce', '/api/app/vid/moduleSection',
  '/api/app/vid/moduleVideo', '/api/app/tag/conf/list', '/api/app/ping/domain/h5', '/api/app/ping/check', '/api/app/mine/login',
])

test('a new visitor at / sees home before the guest sign-in answers; personal calls then carry the token', async () => {
  const { context, page, errors, $ } = await fresh()
  const { release, calls } = await holdSignIn(page)
  await page.goto(server.base + '/?ch=fv')
  // Home with its sections, from the page's own data, the sign-in still held.
  await page.waitForURL(/\/home\?ch=fv$/, { timeout: 15000 })
  await $('video-card').first().waitFor({ timeout: 15000 })
  assert.ok((await $('home-section').count()) >= 2, 'sections drawn')
  assert.equal(await tokenOf(page), null, 'no token yet')
  assert.equal(await $('splash').count(), 0, 'no splash on the way')
  await shot(page, 'firstvisit-home-signing-in')
  const early = calls.filter((c) => !PUBLIC.has(c.path))
  assert.deepEqual(early, [], 'nothing personal asked for before the token')

  release()
  await signedIn(page)
  // The personal calls the shell makes (unread messages) now go, with it.
  await page.waitForFunction(() => performance.getEntriesByType('resource').some((e) => e.name.includes('/api/app/mine/unread')), null, { timeout: 10000 })
  const personal = calls.filter((c) => !PUBLIC.has(c.path))
  assert.ok(personal.length > 0, 'a personal call was made')
  assert.deepEqual(personal.filter((c) => !c.token), [], 'every personal call carried the token')
  assert.ok(personal.every((c) => c.afterSignIn), 'and went after the sign-in answered')
  assert.equal(new URL(page.url()).pathname + new URL(page.url()).search, '/home?ch=fv', 'still on home, with the query')
  assert.deepEqual(errors, [])
  await context.close()
})

test('a shared video link opened with no session shows the poster and title before the sign-in answers', async () => {
  const video = await api('GET', '/api/app/vid/info?id=1')
  const { context, page, errors, $ } = await fresh()
  const { release, calls } = await holdSignIn(page)
  await page.goto(`${server.base}/detail/${video.id}`)
  await $('detail-summary-title').waitFor({ timeout: 15000 })
  assert.equal(await $('detail-summary-title').innerText(), video.title)
  assert.equal(await page.locator('[data-testid=player-poster] img').getAttribute('src'), video.cover)
  // The server's layer is gone: the app shows the same picture itself.
  await page.locator('#prima-first').waitFor({ state: 'detached', timeout: 8000 })
  assert.equal(await tokenOf(page), null, 'no token yet')
  assert.deepEqual(calls.filter((c) => c.path === '/api/app/vid/info'), [], 'the personal detail waits for the token')
  await shot(page, 'firstvisit-detail-signing-in')

  release()
  await $('detail-title').waitFor({ timeout: 15000 })
  assert.equal(await $('detail-title').innerText(), video.title)
  const info = calls.filter((c) => c.path === '/api/app/vid/info')
  assert.equal(info.length, 1, 'vid/info asked for once')
  assert.ok(info[0].token && info[0].afterSignIn, 'with the token')
  assert.equal(new URL(page.url()).pathname, `/detail/${video.id}`)
  assert.deepEqual(errors, [])
  await context.close()
})

test('a failed guest sign-in shows splash with the reason; 重试 lands on the page the link pointed to', async () => {
  const video = await api('GET', '/api/app/vid/info?id=1')
  const { context, page, errors, $ } = await fresh()
  let refuse = true
  await page.route('**/api/app/mine/login', (route) => (refuse ? route.abort('internetdisconnected') : route.continue()))
  await page.goto(`${server.base}/detail/${video.id}?from=share`)
  await $('splash-error').waitFor({ timeout: 15000 })
  assert.equal(new URL(page.url()).pathname, '/')
  assert.match(await $('splash-error').innerText(), /网络/)
  assert.equal(await page.locator('#prima-first').count(), 0, 'nothing of the page drawn over the error')
  await shot(page, 'firstvisit-signin-failed')

  // Still refused: a retry comes back to the same state.
  await $('splash-retry').click()
  await $('splash-error').waitFor({ timeout: 15000 })
  assert.equal(new URL(page.url()).pathname, '/')

  refuse = false
  await $('splash-retry').click()
  await $('detail-title').waitFor({ timeout: 15000 })
  const url = new URL(page.url())
  assert.equal(url.pathname + url.search, `/detail/${video.id}?from=share`)
  await signedIn(page)
  const pageErrors = errors.filter((e) => !/Failed to load resource/.test(e))
  assert.deepEqual(pageErrors, [])
  await context.close()
})

test('a shared video link opened with no session lands on the video, never showing splash or home', async () => {
  const video = await api('GET', '/api/app/vid/info?id=1')
  const { context, page, errors, $ } = await fresh()
  const seen = []
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) seen.push(new URL(f.url()).pathname) })
  // Which paths the app shows on the way, in order.
  await page.exposeFunction('__path', (p) => seen.push('app:' + p))
  await page.addInitScript(() => {
    let last = ''
    const tick = () => {
      if (location.pathname !== last) window.__path?.((last = location.pathname))
      requestAnimationFrame(tick)
    }
    tick()
  })
  await page.goto(`${server.base}/detail/${video.id}?from=share`)
  await $('detail-title').waitFor({ timeout: 15000 })
  const url = new URL(page.url())
  assert.equal(url.pathname + url.search, `/detail/${video.id}?from=share`)
  assert.equal(await $('detail-title').innerText(), video.title)
  await signedIn(page)
  const app = seen.filter((p) => p.startsWith('app:'))
  assert.ok(!app.includes('app:/home'), `never shows home on the way: ${app}`)
  assert.ok(!app.includes('app:/'), `nor splash: ${app}`)
  await shot(page, 'firstvisit-detail')
  // Back from the video: nothing of the trip through splash to go back to;
  // the page's own back goes home.
  await $('nav-back').click()
  await page.waitForURL(/\/home$/, { timeout: 10000 })
  assert.deepEqual(errors, [])
  await context.close()
})

test('a shared post link opened with no session lands on the post', async () => {
  const post = (await api('GET', '/api/app/community/posts?feed=new&pageSize=1')).list[0]
  const { context, page, errors, $ } = await fresh()
  await page.goto(`${server.base}/cdetail/${post.id}`)
  await $('post-page').waitFor({ timeout: 15000 })
  assert.equal(new URL(page.url()).pathname, `/cdetail/${post.id}`)
  await page.getByText(post.title).first().waitFor({ timeout: 10000 })
  assert.deepEqual(errors, [])
  await context.close()
})

test('an invitation to register opened with no session lands on the form with the code, and binds the inviter', async () => {
  const inviter = await api('POST', '/api/app/mine/login', { body: { devID: 'FvInviter0000000' + Date.now(), sysType: 'ios', cutInfos: '' } })
  const { code } = await api('POST', '/api/app/userinvite/info', { token: inviter.token, body: {} })
  const { context, page, errors, $ } = await fresh()
  await page.goto(`${server.base}/mine/register?ic=${code}`)
  await $('register-form').waitFor({ timeout: 15000 })
  const url = new URL(page.url())
  assert.equal(url.pathname + url.search, `/mine/register?ic=${code}`)
  await $('register-invite').waitFor({ timeout: 5000 })
  assert.equal(await $('register-invite').getAttribute('data-code'), code)
  // The first guest sign-in sent the code: the friend is the inviter's.
  const info = await api('POST', '/api/app/userinvite/info', { token: await tokenOf(page), body: {} })
  assert.equal(info.inviter?.uid, inviter.user.uid)
  await shot(page, 'firstvisit-register-invite')
  assert.deepEqual(errors, [])
  await context.close()
})

test('a guest who already has a session opens the invitation to register: registering binds the inviter', async () => {
  const inviter = await api('POST', '/api/app/mine/login', { body: { devID: 'FvInviter1111111' + Date.now(), sysType: 'ios', cutInfos: '' } })
  const { code } = await api('POST', '/api/app/userinvite/info', { token: inviter.token, body: {} })
  const { context, page, errors, $ } = await fresh()
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home$/, { timeout: 15000 })
  await signedIn(page)
  const before = await api('POST', '/api/app/userinvite/info', { token: await tokenOf(page), body: {} })
  assert.equal(before.inviter, null, 'a guest signed in with no invitation')
  await page.goto(`${server.base}/mine/register?ic=${code.toLowerCase()}`)
  assert.equal(await $('register-invite').getAttribute('data-code', { timeout: 10000 }), code)
  await $('register-account').fill('fv_' + Date.now().toString(36).slice(-6))
  await $('register-password').fill('secret12')
  await $('register-confirm').fill('secret12')
  await $('register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  const after = await api('POST', '/api/app/userinvite/info', { token: await tokenOf(page), body: {} })
  assert.equal(after.inviter?.uid, inviter.user.uid)
  const mine = await api('POST', '/api/app/userinvite/info', { token: inviter.token, body: {} })
  assert.equal(mine.registeredCount, 1)
  assert.deepEqual(errors, [])
  await context.close()
})

test('nothing in a link or the history state sends a first visit to another site', async () => {
  const video = await api('GET', '/api/app/vid/info?id=1')
  // Values a crafted link or a script could try; the app reads none from
  // the query, and the state it does read is checked.
  const hostile = ['//evil.example/x', 'https://evil.example/', '/\\evil.example', '/..//evil.example', 'javascript:alert(1)']
  const origin = new URL(server.base).origin
  for (const from of hostile) {
    const { context, page, errors, $ } = await fresh()
    const offsite = []
    page.on('request', (r) => { if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) offsite.push(r.url()) })
    // The router's state as if the shell had put it there.
    await page.addInitScript((v) => {
      if (location.pathname === '/' && !history.state) history.replaceState({ usr: { from: v }, key: 'x', idx: 0 }, '')
    }, from)
    await page.goto(`${server.base}/?to=${encodeURIComponent(from)}&from=${encodeURIComponent(from)}&redirect=${encodeURIComponent(from)}`)
    await page.waitForURL(/\/home\?/, { timeout: 15000 })
    assert.equal(new URL(page.url()).origin, origin, from)
    await $('tab-home').waitFor()
    assert.deepEqual(offsite, [], from)
    assert.deepEqual(errors, [], from)
    await context.close()
  }
  // A shared link with such values in its query still lands on its page.
  const { context, page, $ } = await fresh()
  await page.goto(`${server.base}/detail/${video.id}?to=${encodeURIComponent('//evil.example/')}&next=https://evil.example/`)
  await $('detail-title').waitFor({ timeout: 15000 })
  assert.equal(new URL(page.url()).origin, origin)
  assert.equal(new URL(page.url()).pathname, `/detail/${video.id}`)
  await context.close()
})

// offlineTab opens home, goes offline and taps a tab whose code has not
// been downloaded; it returns the phone, with a marker on the document.
async function offlineTab(tab, colorScheme) {
  const P = await fresh({ colorScheme })
  // Registered before the app's own listeners, so it can hold the online
  // event back from them when a test asks (window.__muteOnline).
  await P.page.addInitScript(() => {
    window.addEventListener('online', (e) => { if (window.__muteOnline) e.stopImmediatePropagation() }, true)
  })
  await P.page.goto(server.base + '/home')
  await P.$('video-card').first().waitFor({ timeout: 15000 })
  await P.page.evaluate(() => { window.__sameDocument = true })
  await P.context.setOffline(true)
  await P.$(`tab-${tab}`).click()
  await P.$('state-offline').waitFor({ timeout: 10000 })
  return P
}

const tabBarShown = async ($) => (await $('tab-home').isVisible()) && (await $('tab-mine').isVisible()) && (await $('tab-community').isVisible())

test('offline on a tab not visited yet keeps the tab bar; 重试 keeps the document and brings the page back online', async () => {
  const { context, page, errors, $ } = await offlineTab('community', 'light')
  assert.equal(new URL(page.url()).pathname, '/community')
  assert.ok(await tabBarShown($), 'the tab bar stays')
  assert.equal(await $('route-error').count(), 1)
  assert.equal(await page.evaluate(() => document.querySelector('[data-testid=route-error]').closest('nav, [class*=layout]') != null), true, 'the state is inside the tab layout')
  await shot(page, 'firstvisit-offline-tab-light')

  // Still offline: retry tries again, in place.
  await $('state-retry').click()
  await page.waitForTimeout(800)
  await $('state-offline').waitFor({ timeout: 10000 })
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'not reloaded')
  assert.ok(await tabBarShown($), 'the tab bar stays')

  // Back online, the page's own online listeners not told (the next test
  // has them): the tap brings the page, styled, in the same document.
  await page.evaluate(() => { window.__muteOnline = true })
  await context.setOffline(false)
  await page.waitForTimeout(300)
  assert.equal(await $('community-page').count(), 0)
  await $('state-retry').click()
  await $('community-page').waitFor({ timeout: 15000 })
  await shot(page, 'firstvisit-offline-tab-back')
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'not reloaded')
  assert.ok(await tabBarShown($), 'the tab bar stays')
  // Styled: every stylesheet linked has rules (Chromium gives a failed link
  // an empty, unreadable sheet), the page's own among them: Vite's loader
  // never links again a stylesheet it tried once.
  const sheets = await page.evaluate(() => {
    const rules = (l) => { try { return l.sheet?.cssRules.length ?? 0 } catch { return 0 } }
    const links = [...document.querySelectorAll('link[rel=stylesheet]')]
    return { unstyled: links.filter((l) => rules(l) === 0).map((l) => l.href), loaded: links.filter((l) => rules(l) > 0).map((l) => l.href) }
  })
  assert.deepEqual(sheets.unstyled, [], 'every stylesheet of the page loaded')
  assert.ok(sheets.loaded.some((h) => /\/assets\/CommunityPage-[^/]+\.css$/.test(h)), `the page's stylesheet is in: ${sheets.loaded}`)
  const loaded = errors.filter((e) => !/preload CSS|dynamically imported module/.test(e))
  assert.deepEqual(loaded, [])
  await context.close()
})

test('offline on another tab, dark: back online, the page comes by itself, in the same document', async () => {
  const { context, page, $ } = await offlineTab('mine', 'dark')
  assert.ok(await tabBarShown($), 'the tab bar stays')
  await shot(page, 'firstvisit-offline-tab-dark')
  await context.setOffline(false)
  await $('mine-page').waitFor({ timeout: 15000 })
  assert.equal(await page.evaluate(() => window.__sameDocument), true, 'not reloaded')
  assert.ok(await tabBarShown($), 'the tab bar stays')
  await context.close()
})
