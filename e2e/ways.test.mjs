// Every way in, as an iPhone 13 (Chromium) against the real server run in
// test mode (PRIMA_TEST_MODE=1, so SMS codes are readable at
// /api/test/sms/last): register, bind a phone with an SMS code, see it on
// account safety, sign another device out, log out, reset the password by
// SMS on /mine/forget, and log in with the new password (the old one is
// refused). Bad input on the way: a malformed number, a wrong code.
// Each page is screenshotted in light and dark and audited with axe.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { call } from './media.mjs'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const ACCOUNT = 'ways_' + Date.now().toString(36).slice(-6)
const PASSWORD = 'secret12'
const NEW_PASSWORD = 'newpass34'
const MOBILE = '139' + String(Date.now()).slice(-8)

let server, phone, page
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer({ PRIMA_TEST_MODE: '1' })
  phone = await launchPhone({ bypassCSP: true })
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

async function lastCode(mobile) {
  return (await call(server.base, 'GET', '/api/test/sms/last?mobile=' + mobile)).code
}

async function userCall(method, path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  return call(server.base, method, path, { token, body })
}

async function both(name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await shot(page, `ways-${name}-${scheme}`)
    await page.addScriptTag({ path: axePath })
    const bad = await page.evaluate(async () => {
      const r = await window.axe.run(document, { resultTypes: ['violations'] })
      return r.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .flatMap((v) => v.nodes.map((n) => `[${v.impact}] ${v.id} at ${n.target.join(' ')}`))
    })
    assert.deepEqual(bad, [], `${name} (${scheme}) has serious accessibility violations:\n${bad.join('\n')}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

test('the test-mode code reader answers only for numbers that got a code', async () => {
  const r = await fetch(server.base + '/api/test/sms/last?mobile=13800000000')
  assert.equal(r.status, 404)
})

test('a guest is asked to register before binding a phone', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/bindphone')
  await $('ways-guest-gate').waitFor({ timeout: 15000 })
  await both('bindphone-guest')
})

test('registers, then binds a phone with an SMS code', async () => {
  await page.goto(server.base + '/mine/register')
  await $('register-account').fill(ACCOUNT)
  await $('register-password').fill(PASSWORD)
  await $('register-confirm').fill(PASSWORD)
  await $('register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })

  await page.goto(server.base + '/mine/setting')
  await $('setting-accountsafe').waitFor({ timeout: 15000 })
  await both('setting')
  await $('setting-accountsafe').click()
  await page.waitForURL(/\/mine\/accountsafe$/)
  await $('device-current').waitFor({ timeout: 15000 })
  assert.match(await $('safe-mobile').innerText(), /未绑定/)
  await $('safe-bindphone').click()
  await page.waitForURL(/\/mine\/bindphone$/)
  await $('bindphone-form').waitFor()

  // A malformed number is refused before any request.
  await $('bind-mobile').fill('12345')
  await $('bind-send').click()
  await $('bind-mobile-error').waitFor()
  await both('bindphone-invalid')

  await $('bind-mobile').fill(MOBILE.slice(0, 3) + ' ' + MOBILE.slice(3, 7) + ' ' + MOBILE.slice(7))
  const sent = page.waitForResponse((r) => r.url().includes('/api/app/sms/captcha'))
  await $('bind-send').click()
  assert.equal((await sent).status(), 200)
  await page.locator('[data-testid=bind-send]:disabled').waitFor()
  assert.match(await $('bind-send').innerText(), /秒后重发/)
  const code = await lastCode(MOBILE)
  assert.match(code, /^\d{6}$/)

  // A wrong code: the server's tip shows, nothing is bound.
  await $('bind-code').fill(code === '000000' ? '000001' : '000000')
  await $('bind-pwd').fill(PASSWORD)
  await $('bind-submit').click()
  await $('bind-error').waitFor()
  assert.match(await $('bind-error').innerText(), /验证码错误/)
  assert.equal((await userCall('GET', '/api/app/mine/info')).mobile, '')

  await $('bind-code').fill(code)
  await $('bind-submit').click()
  await page.waitForURL(/\/mine\/accountsafe$/, { timeout: 15000 })
  const masked = MOBILE.slice(0, 3) + '****' + MOBILE.slice(7)
  await page.locator('[data-testid=safe-mobile]', { hasText: masked }).waitFor({ timeout: 15000 })
})

test('account safety lists another device and signs it out', async () => {
  const other = await call(server.base, 'POST', '/api/app/mine/login/h5', { body: { account: ACCOUNT, passWord: PASSWORD, sysType: 'android' } })
  await page.reload()
  await $('device-other').waitFor({ timeout: 15000 })
  await $('safe-password').click()
  await $('pwd-form').waitFor()
  await both('accountsafe')
  await $('safe-password').click()
  await $('pwd-form').waitFor({ state: 'detached' })
  await both('accountsafe-devices')
  await $('device-signout').click()
  await page.locator('.adm-dialog-footer button', { hasText: '下线' }).click()
  await $('safe-no-others').waitFor({ timeout: 15000 })
  const r = await fetch(server.base + '/api/app/mine/info', { headers: { Authorization: `Bearer ${other.token}` } })
  assert.equal(r.status, 401, 'the signed-out device is out')
})

test('logs out, resets the password by SMS and logs in with the new one', async () => {
  await page.goto(server.base + '/mine/setting')
  await $('logout').click()
  await page.locator('.adm-dialog-footer button', { hasText: '退出登录' }).click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })

  await page.goto(server.base + '/mine/login')
  await $('login-to-forget').click()
  await page.waitForURL(/\/mine\/forget$/)
  await $('forget-form').waitFor()
  await both('forget')
  // Bad input first: a malformed number never leaves the page.
  await $('forget-mobile').fill('1380000')
  await $('forget-send').click()
  await $('forget-mobile-error').waitFor()
  await $('forget-mobile').fill(MOBILE)
  const sent = page.waitForResponse((r) => r.url().includes('/api/app/sms/captcha'))
  await $('forget-send').click()
  assert.equal((await sent).status(), 200)
  const code = await lastCode(MOBILE)
  await $('forget-code').fill(code)
  await $('forget-pwd').fill(NEW_PASSWORD)
  await $('forget-confirm').fill(NEW_PASSWORD)
  await $('forget-submit').click()
  await page.waitForURL(/\/mine\/login$/, { timeout: 15000 })

  await $('login-account').fill(ACCOUNT)
  await $('login-password').fill(PASSWORD)
  await $('login-submit').click()
  await $('login-error').waitFor({ timeout: 15000 })
  await $('login-password').fill(NEW_PASSWORD)
  await $('login-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  const me = await userCall('GET', '/api/app/mine/info')
  assert.equal(me.account, ACCOUNT)
  assert.equal(me.hasPassword, true)
})
