// The account certificate, as an iPhone 13 (Chromium) against the real
// server: a user registers, opens /mine/accountcode and saves the QR picture
// (the download of 下载图片); in a FRESH browser context the picture is
// uploaded on the login page, the account it names is confirmed, and the
// phone arrives on /mine as the same uid. A text file named .png is refused
// with its tip. After 重置凭证 the old picture is refused, and the new
// credential opened as a link (/mine/login#uid=..&qrCnt=..) in another fresh
// context, with no session yet, signs in too and leaves no credential in the
// address bar. Screens are shot in light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createRequire } from 'node:module'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, artifacts, signedIn } from './harness.mjs'

const ACCOUNT = 'ce_' + Date.now().toString(36).slice(-6)
const PASSWORD = 'secret12'
const dir = join(artifacts, 'cert')
const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')

let server, phone, page, uid, firstPicture, qrCnt

before(async () => {
  mkdirSync(dir, { recursive: true })
  server = await startServer()
  phone = await launchPhone({ bypassCSP: true })
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

const $ = (p, id) => p.locator(`[data-testid=${id}]`)

// both screenshots the page in light and dark and audits each with axe (no
// serious or critical violation).
async function both(p, name) {
  for (const scheme of ['light', 'dark']) {
    await p.emulateMedia({ colorScheme: scheme })
    await p.waitForTimeout(150)
    await shot(p, `cert-${name}-${scheme}`)
    await p.addScriptTag({ path: axePath })
    const bad = await p.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] })
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .flatMap((v) => v.nodes.map((n) => `[${v.impact}] ${v.id} at ${n.target.join(' ')}`))
    })
    assert.deepEqual(bad, [], `${name} (${scheme}) has serious accessibility violations`)
  }
  await p.emulateMedia({ colorScheme: 'light' })
}

// fresh opens a new iPhone context in the same browser: no storage, no
// cookies, a new device id, as another phone would be.
async function fresh() {
  const context = await phone.browser.newContext({ ...devices['iPhone 13'], bypassCSP: true, locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })
  const p = await context.newPage()
  const errors = []
  p.on('pageerror', (e) => errors.push(String(e)))
  return { context, page: p, errors }
}

async function me(p) {
  const token = await p.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const r = await fetch(server.base + '/api/app/mine/info', { headers: { Authorization: `Bearer ${token}` } })
  return (await r.json()).data
}

test('a registered user saves the account certificate picture', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/register')
  await $(page, 'register-account').fill(ACCOUNT)
  await $(page, 'register-password').fill(PASSWORD)
  await $(page, 'register-confirm').fill(PASSWORD)
  await $(page, 'register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  uid = (await me(page)).uid

  const firstGet = page.waitForResponse((r) => r.url().includes('/api/app/mine/certificate/qr'))
  await page.goto(server.base + '/mine/accountcode')
  const firstCnt = (await (await firstGet).json()).data.qrCnt
  const pic = $(page, 'cert-picture')
  await pic.waitFor({ timeout: 15000 })
  assert.equal(Number(await pic.getAttribute('data-uid')), uid)
  assert.match(await $(page, 'cert-uid').innerText(), new RegExp(String(uid)))
  // The download is the saved picture: a PNG.
  const download = page.waitForEvent('download')
  await $(page, 'cert-download').click()
  const d = await download
  assert.equal(d.suggestedFilename(), `prima-account-${uid}.png`)
  firstPicture = join(dir, 'saved.png')
  await d.saveAs(firstPicture)
  const bytes = readFileSync(firstPicture)
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG')
  // The long-press picture is the same PNG.
  const src = await pic.getAttribute('src')
  assert.ok(src.startsWith('data:image/png;base64,'))
  assert.deepEqual(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64'), bytes)
  // Visiting again shows the same credential (a saved picture stays valid).
  // (The pictures themselves may differ by a pixel: text is drawn with
  // whatever font has loaded by then.)
  const again = page.waitForResponse((r) => r.url().includes('/api/app/mine/certificate/qr'))
  await page.reload()
  assert.equal((await (await again).json()).data.qrCnt, firstCnt)
  await $(page, 'cert-picture').waitFor({ timeout: 15000 })
  await both(page, 'accountcode')
  // The narrowest phone, the whole page (warning and reset below the fold).
  await page.setViewportSize({ width: 320, height: 568 })
  await page.waitForTimeout(300)
  await page.screenshot({ path: join(artifacts, 'cert-accountcode-320-full.png'), fullPage: true })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.equal(overflow, 0, 'no sideways scrolling at 320 px')
  await page.setViewportSize(devices['iPhone 13'].viewport)
})

test('in a fresh browser the saved picture signs in as the same user', async () => {
  const other = await fresh()
  const p = other.page
  await p.goto(server.base + '/')
  await p.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p) // home shows while the guest signs in
  const guestUid = (await me(p)).uid
  assert.notEqual(guestUid, uid)
  await p.goto(server.base + '/mine/login')
  await $(p, 'cert-login-pick').waitFor({ timeout: 15000 })
  await both(p, 'login')

  // A text file dressed as a PNG is refused with the server's tip.
  const fake = join(dir, 'notes.png')
  writeFileSync(fake, 'not a picture at all\n')
  await $(p, 'cert-login-file').setInputFiles(fake)
  await $(p, 'cert-login-error').waitFor({ timeout: 15000 })
  assert.match(await $(p, 'cert-login-error').innerText(), /PNG|JPEG/)

  await $(p, 'cert-login-file').setInputFiles(firstPicture)
  await $(p, 'cert-confirm').waitFor({ timeout: 15000 })
  assert.equal(Number(await $(p, 'cert-confirm-uid').getAttribute('data-uid')), uid)
  await both(p, 'confirm')
  await $(p, 'cert-confirm-login').click()
  await p.waitForURL(/\/mine$/, { timeout: 15000 })
  const who = await me(p)
  assert.equal(who.uid, uid)
  assert.equal(who.account, ACCOUNT)
  assert.deepEqual(other.errors, [])
  await other.context.close()
})

test('after a reset the old picture is refused and the new link signs in', async () => {
  await page.goto(server.base + '/mine/accountcode')
  await $(page, 'cert-picture').waitFor({ timeout: 15000 })
  const before = await $(page, 'cert-picture').getAttribute('src')
  await $(page, 'cert-reset').click()
  await page.locator('.adm-dialog-button', { hasText: '重置凭证' }).click()
  await page.waitForFunction((old) => {
    const img = document.querySelector('[data-testid=cert-picture]')
    return img && img.getAttribute('src') !== old
  }, before, { timeout: 15000 })
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const cur = await (await fetch(server.base + '/api/app/mine/certificate/qr', { headers: { Authorization: `Bearer ${token}` } })).json()
  qrCnt = cur.data.qrCnt

  const other = await fresh()
  const p = other.page
  await p.goto(server.base + '/')
  await p.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p) // home shows while the guest signs in
  await p.goto(server.base + '/mine/login')
  await $(p, 'cert-login-file').setInputFiles(firstPicture)
  await $(p, 'cert-login-error').waitFor({ timeout: 15000 })
  assert.match(await $(p, 'cert-login-error').innerText(), /无效或已重置/)
  assert.notEqual((await me(p)).uid, uid)
  await shot(p, 'cert-refused-light')
  await other.context.close()

  // The link, in a browser that has never opened the app.
  const third = await fresh()
  const q = third.page
  await q.goto(`${server.base}/mine/login#uid=${uid}&qrCnt=${qrCnt}`)
  await $(q, 'cert-confirm').waitFor({ timeout: 15000 })
  assert.equal(Number(await $(q, 'cert-confirm-uid').getAttribute('data-uid')), uid)
  assert.ok(!q.url().includes(qrCnt), 'the credential is wiped from the address bar')
  await $(q, 'cert-confirm-login').click()
  await q.waitForURL(/\/mine$/, { timeout: 15000 })
  assert.equal((await me(q)).uid, uid)
  await third.context.close()
})
