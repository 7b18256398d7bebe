// Invitations, as an iPhone 13 (Chromium) against the real server: user A
// opens 邀请好友 (/mine/shareyaoqing) and reads the code; a FRESH phone
// opens A's link (/?ic=<code>), which its first guest login sends as
// cutInfos, registers and binds a phone (the operator pays the sign-up
// reward on a bound phone: issue 19, registering alone could be farmed);
// A's invite data (/mine/pushdata) then lists the invitee as rewarded and
// A's coins rose by the reward. The friend's yaoqingcode page shows A as
// inviter. Screens in light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call as api } from './media.mjs'

let server, phone, page

before(async () => {
  server = await startServer({ PRIMA_TEST_MODE: '1' }, { setup: operatorSetup })
  phone = await launchPhone()
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

const $ = (p, id) => p.locator(`[data-testid=${id}]`)

async function both(p, name) {
  for (const scheme of ['light', 'dark']) {
    await p.emulateMedia({ colorScheme: scheme })
    await p.waitForTimeout(150)
    await shot(p, `invite-${name}-${scheme}`)
  }
  await p.emulateMedia({ colorScheme: 'light' })
}

async function call(p, path) {
  const token = await p.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const r = await fetch(server.base + path, { headers: { Authorization: `Bearer ${token}` } })
  return (await r.json()).data
}

async function register(p, account) {
  await p.goto(server.base + '/mine/register')
  await $(p, 'register-account').fill(account)
  await $(p, 'register-password').fill('secret12')
  await $(p, 'register-confirm').fill('secret12')
  await $(p, 'register-submit').click()
  await p.waitForURL(/\/mine$/, { timeout: 15000 })
}

test('a friend opening the invite link, registering and binding a phone pays the inviter', async () => {
  const op = { token: await consoleToken(server.base, OPERATOR) } // the operator console's token (password + TOTP)
  const config = await api(server.base, 'GET', '/api/admin/commission/config', { token: op.token })
  await api(server.base, 'POST', '/api/admin/commission/config', { token: op.token, body: { ...config, inviteReward: 'phone' } })
  const errors = []
  page.on('pageerror', (e) => errors.push(String(e)))
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/shareyaoqing')
  const codeEl = $(page, 'invite-code')
  await codeEl.waitFor({ timeout: 15000 })
  const code = await codeEl.getAttribute('data-code')
  assert.match(code, /^[2-9A-HJKMNP-Z]{6}$/)
  assert.equal(await $(page, 'invite-link').innerText(), `${server.base}/?ic=${code}`)
  await $(page, 'invite-qr').waitFor({ timeout: 10000 })
  await both(page, 'share')
  const coinsBefore = (await call(page, '/api/app/mine/wallet')).coins

  // Another phone: no storage, a new device id.
  const context = await phone.browser.newContext({ ...devices['iPhone 13'], locale: 'zh-CN', timezoneId: 'Asia/Shanghai' })
  const friend = await context.newPage()
  friend.on('pageerror', (e) => errors.push(String(e)))
  await friend.goto(`${server.base}/?ic=${code.toLowerCase()}`)
  await friend.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(friend) // home shows while the guest signs in
  await register(friend, 'iv_' + Date.now().toString(36).slice(-6))
  const friendToken = await friend.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const mobile = '13700000042'
  await api(server.base, 'POST', '/api/app/sms/captcha', { token: friendToken, body: { mobile, type: 1, purpose: 'bind' } })
  const { code: sms } = await api(server.base, 'GET', '/api/test/sms/last?mobile=' + mobile)
  await api(server.base, 'POST', '/api/app/mine/bindphone', { token: friendToken, body: { mobile, code: sms, pwd: 'secret12' } })
  await friend.goto(server.base + '/mine/yaoqingcode')
  await $(friend, 'invite-inviter').waitFor({ timeout: 10000 })
  await both(friend, 'yaoqingcode-bound')
  await context.close()

  await page.goto(server.base + '/mine/pushdata')
  await $(page, 'invite-counts').waitFor({ timeout: 10000 })
  assert.equal(await $(page, 'invite-total').innerText(), '1')
  assert.equal(await $(page, 'invite-coins').innerText(), '50')
  await both(page, 'pushdata')
  await $(page, 'invite-tab-list').click()
  await page.waitForURL(/type=list/)
  const row = $(page, 'invitee')
  await row.waitFor({ timeout: 10000 })
  assert.equal(await row.getAttribute('data-state'), 'rewarded')
  await both(page, 'pushdata-list')
  assert.equal((await call(page, '/api/app/mine/wallet')).coins, coinsBefore + 50)

  // A code of one's own is refused with its tip, nothing bound.
  await page.goto(server.base + '/mine/yaoqingcode')
  await $(page, 'invite-input').fill(code)
  await $(page, 'invite-bind').click()
  await page.getByText('不能填写自己的邀请码').waitFor({ timeout: 5000 })
  await both(page, 'yaoqingcode')
  await page.setViewportSize({ width: 320, height: 568 })
  await page.goto(server.base + '/mine/shareyaoqing')
  await $(page, 'invite-code').waitFor({ timeout: 10000 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.equal(overflow, 0, 'no sideways scrolling at 320 px')
  await shot(page, 'invite-share-320')
  assert.deepEqual(errors, [])
})
