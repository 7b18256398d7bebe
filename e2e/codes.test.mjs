// Redemption codes, as an iPhone 13 (Chromium) against the real server: an
// operator makes a batch through POST /api/admin/codes/batches; the guest
// the app signed in as types a wrong code (the server's tip under the
// field), pastes a real one in lower case with spaces (grouped and
// upper-cased as typed), redeems it, sees the success sheet and its coins
// rise, finds it in the records, and is refused with its own tip on a
// second try. Each state is screenshotted light and dark and audited.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call } from './media.mjs'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
let server, phone, page, opToken
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  phone = await launchPhone({ bypassCSP: true })
  page = phone.page
  opToken = await consoleToken(server.base, OPERATOR) // the operator console's token (password + TOTP)
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

async function both(name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await shot(page, `codes-${name}-${scheme}`)
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

test('a guest redeems an operator code once, sees what it gave, and is refused the second time', async () => {
  // Only an operator makes codes; without a token the call is refused.
  const anon = await fetch(server.base + '/api/admin/codes/batches', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })
  assert.equal(anon.status, 401)
  const made = await call(server.base, 'POST', '/api/admin/codes/batches', {
    token: opToken,
    body: { name: '新用户福利', reward: { coins: 88, vipLevel: 1, vipDays: 3 }, count: 2, usesPerCode: 1 },
  })
  assert.equal(made.codes.length, 2)
  assert.match(made.codes[0], /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/)

  await page.goto(server.base + '/mine/duihuancode')
  await $('codes-input').waitFor({ timeout: 15000 })
  await page.locator('[data-testid=codes-page] [data-testid=state-empty]').waitFor({ timeout: 15000 })
  await page.getByText('我的金币 0').waitFor({ timeout: 10000 })
  await both('empty')

  // A well-formed code nobody made: the server's one tip for all unknowns.
  await $('codes-input').fill('2345 6789 abcd')
  assert.equal(await $('codes-input').inputValue(), '2345-6789-ABCD')
  await $('codes-submit').click()
  await page.locator('[data-testid=codes-error]', { hasText: '兑换码无效' }).waitFor({ timeout: 10000 })
  await both('invalid')

  // The real code as someone might paste it: lower case, spaces.
  await $('codes-input').fill(made.codes[0].toLowerCase().replaceAll('-', ' '))
  assert.equal(await $('codes-input').inputValue(), made.codes[0])
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/code/exchange'))
  await $('codes-submit').click()
  assert.equal((await sent).status(), 200)
  await $('codes-success').waitFor({ timeout: 10000 })
  assert.equal(await $('codes-part-coins').locator('span').innerText(), '88 金币')
  assert.match(await $('codes-part-vip').innerText(), /3 天 VIP 会员/)
  await both('success')
  await $('codes-done').click()
  await $('codes-success').waitFor({ state: 'detached' })

  // Coins rose; the record lists the masked code.
  await page.getByText('我的金币 88').waitFor({ timeout: 10000 })
  await $('codes-record').first().waitFor({ timeout: 10000 })
  const rec = await $('codes-record').first().innerText()
  assert.match(rec, new RegExp(made.codes[0].slice(0, 4) + '-\\*{4}-\\*{4}'))
  assert.match(rec, /新用户福利/)
  assert.ok(!rec.includes(made.codes[0]), 'the record shows the whole code')
  await both('records')

  // The same code again: refused with its own tip, nothing more granted.
  await $('codes-input').fill(made.codes[0])
  await $('codes-submit').click()
  await page.locator('[data-testid=codes-error]', { hasText: '你已兑换过该兑换码' }).waitFor({ timeout: 10000 })
  assert.equal(await $('codes-record').count(), 1)
  await page.getByText('我的金币 88').waitFor()
  await both('again')

  // The narrowest phone: nothing runs off the side.
  await page.setViewportSize({ width: 320, height: 640 })
  await page.waitForTimeout(200)
  await shot(page, 'codes-320-light')
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 320), 'the page overflows at 320 px')
  assert.deepEqual(phone.errors.filter((e) => !/Failed to load resource/.test(e)), [])

  // The operator's list counts the use.
  const list = await call(server.base, 'GET', '/api/admin/codes/batches', { token: opToken })
  assert.equal(list.list[0].redeemed, 1)
})
