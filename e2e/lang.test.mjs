// The language, as an iPhone 13 (Chromium) against the real server. English
// is a chunk of its own (web/src/i18n/index.ts): home never downloads it;
// choosing English in settings loads it, then switches; a saved English
// opens in English with no screen of Chinese first; offline, the choice
// shows the network toast and the language stays, and a later tap works.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, signedIn } from './harness.mjs'

let server, phone, page
const $ = (id) => page.locator(`[data-testid=${id}]`)
const EN_CHUNK = /\/assets\/en-[\w-]+\.js$/
const enRequests = []

before(async () => {
  server = await startServer()
  phone = await launchPhone()
  page = phone.page
  phone.context.on('request', (r) => { if (EN_CHUNK.test(r.url())) enRequests.push(r.url()) })
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await $('video-card').first().waitFor()
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

const navLabel = (p) => p.locator('nav[aria-label]').first().getAttribute('aria-label')

test('home does not download English; choosing it in settings does, then switches', async () => {
  assert.deepEqual(enRequests, [], 'no English chunk for a zh-CN home')
  await page.goto(server.base + '/mine/setting')
  await $('lang-en').click()
  await page.waitForFunction(() => document.documentElement.lang === 'en')
  assert.equal(await $('lang-en').getAttribute('aria-checked'), 'true')
  assert.equal(enRequests.length, 1, 'the English chunk, once')
  await page.goto(server.base + '/home')
  await $('video-card').first().waitFor()
  assert.equal(await navLabel(page), 'Main navigation')
})

test('a saved English opens in English, never Chinese first', async () => {
  const fresh = await phone.context.newPage()
  // Every label the tab bar shows, from the first one on.
  await fresh.addInitScript(() => {
    const seen = (window.__navLabels = [])
    new MutationObserver(() => {
      for (const n of document.querySelectorAll('nav[aria-label]')) {
        const l = n.getAttribute('aria-label')
        if (!seen.includes(l)) seen.push(l)
      }
    }).observe(document, { subtree: true, childList: true, attributes: true })
  })
  await fresh.goto(server.base + '/home')
  await fresh.locator('[data-testid=video-card]').first().waitFor()
  assert.deepEqual(await fresh.evaluate(() => window.__navLabels), ['Main navigation'])
  assert.equal(await fresh.evaluate(() => document.documentElement.lang), 'en')
  await fresh.close()
})

test('offline, choosing English shows the network toast and keeps Chinese; a later tap switches', async () => {
  await page.goto(server.base + '/mine/setting')
  await $('lang-zh-CN').click()
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN')
  // A new page starts in zh-CN without the English module.
  const off = await phone.context.newPage()
  await off.route(EN_CHUNK, (r) => r.abort('internetdisconnected'))
  await off.goto(server.base + '/mine/setting')
  await off.locator('[data-testid=lang-en]').click()
  await off.getByText('网络连接失败，请检查网络').waitFor()
  assert.equal(await off.evaluate(() => document.documentElement.lang), 'zh-CN')
  assert.equal(await off.locator('[data-testid=lang-zh-CN]').getAttribute('aria-checked'), 'true')
  await off.unroute(EN_CHUNK)
  await off.locator('[data-testid=lang-en]').click()
  await off.waitForFunction(() => document.documentElement.lang === 'en')
  assert.equal(await off.locator('[data-testid=lang-en]').getAttribute('aria-checked'), 'true')
  await off.close()
})
