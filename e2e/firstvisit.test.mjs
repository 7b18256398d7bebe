// A first visit and the routes around it, as an iPhone 13 (Chromium).
//
// Offline on a tab not visited yet: the tab's code cannot download, the tab
// bar stays, the offline state shows with 重试; 重试 offline loads nothing
// and keeps the document (no reload into the browser's offline page); back
// online, 重试 (or the online event by itself) brings the page, styled, in
// the same document.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot } from './harness.mjs'

let server, phone

before(async () => {
  server = await startServer()
  phone = await launchPhone()
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

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
