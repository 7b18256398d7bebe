// Support and information, as an iPhone 13 (Chromium) against the real
// server: the FAQ (seeded) opens an answer; the official groups; the
// application centre counts a tap (an operator set the list through
// POST /api/admin/source and reads the count through /api/admin/apps/clicks);
// feedback with a picture appears in my feedback; an operator replies through
// /api/admin/feedback/reply, the user sees the reply arrive (the notice's
// realtime event refetches the list) and a system notice row exists; a creator application goes pending and an operator's rejection
// shows with its reason. Each page is screenshotted in light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
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
  // The operator console's token (password + TOTP). Calls that need a code
  // from the last 5 minutes (step-up) ask consoleToken again, which steps
  // the session up when its code is older.
  opToken = await consoleToken(server.base, OPERATOR)
  // The app signs in as a guest on its first screen.
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

async function both(name) {
  // A toast (sent, copied) is gone before the page is judged.
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 5000 }).catch(() => {})
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await shot(page, `help-${name}-${scheme}`)
    const bad = await audit()
    assert.deepEqual(bad, [], `${name} (${scheme}) has serious accessibility violations:\n${bad.join('\n')}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

// audit runs axe-core on the page: its serious and critical violations.
async function audit() {
  // A toast or sheet caught mid-fade has a contrast that is neither its start
  // nor its end: audit the resting state, as a11y.test.mjs does.
  await page.addStyleTag({ content: '*, *::before, *::after { animation-duration: 0s !important; transition-duration: 0s !important; }' })
  await page.addScriptTag({ path: axePath })
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] })
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `[${v.impact}] ${v.id} at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`))
  })
}

// sql reads the server's SQLite database (the e2e server runs on SQLite).
function sql(q) {
  return execFileSync('sqlite3', [join(server.env.PRIMA_DATA_DIR, 'prima.db'), q], { encoding: 'utf8' }).trim()
}

test('the FAQ from the remote configuration opens an answer', async () => {
  await page.goto(server.base + '/mine/help')
  await $('faq-item').first().waitFor({ timeout: 15000 })
  assert.ok((await $('faq-item').count()) >= 5)
  assert.equal(await $('faq-answer').count(), 0)
  await $('faq-question').first().click()
  assert.match(await $('faq-answer').innerText(), /VIP/)
  assert.equal(await $('faq-question').first().getAttribute('aria-expanded'), 'true')
  await both('faq')
})

test('official groups list their links', async () => {
  await call(server.base, 'POST', '/api/admin/source', {
    token: await consoleToken(server.base, OPERATOR),
    body: { key: 'GROUP', entries: [{ title: '官方网站 · 获取最新地址', url: '/' }, { title: 'Telegram 官方频道', url: 'https://t.me/s/telegram' }] },
  })
  await page.goto(server.base + '/mine/groups')
  await $('group-item').nth(1).waitFor({ timeout: 15000 })
  assert.equal(await $('group-url').nth(1).innerText(), 'https://t.me/s/telegram')
  await both('groups')
  // The narrowest phone: nothing runs off the side.
  await page.setViewportSize({ width: 320, height: 640 })
  await page.waitForTimeout(200)
  await shot(page, 'help-groups-320-light')
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 320), 'groups overflow at 320 px')
  await page.setViewportSize({ width: 390, height: 664 })
})

test('the application centre counts a tap and opens the app', async () => {
  const set = await call(server.base, 'POST', '/api/admin/source', {
    token: await consoleToken(server.base, OPERATOR),
    body: { key: 'APPS', entries: [{ title: '会员中心', url: '/mine/vipcenter', desc: '开通 VIP 观看全部视频' }, { title: '福利任务', url: '/mine/userfulitask' }] },
  })
  const id = set.entries[0].id
  await page.goto(server.base + '/mine/applicationdownload')
  await $('app-item').nth(1).waitFor({ timeout: 15000 })
  await both('appdownload')
  await page.goto(server.base + '/mine/applicationcenter')
  await $('app-item').nth(1).waitFor({ timeout: 15000 })
  await both('appcenter')
  const counted = page.waitForResponse((r) => r.url().endsWith('/api/app/apps/click'))
  await page.locator(`[data-testid=app-item][data-id="${id}"]`).click()
  assert.equal((await counted).status(), 200)
  await page.waitForURL(/\/mine\/vipcenter$/)
  const clicks = await call(server.base, 'GET', '/api/admin/apps/clicks?days=1', { token: opToken })
  assert.deepEqual(clicks.list.map((c) => [c.id, c.clicks]), [[id, 1]])
})

test('feedback with a picture appears in my feedback; the operator replies and the user sees it', async () => {
  await page.goto(server.base + '/mine/suggest')
  await $('fb-content').waitFor({ timeout: 15000 })
  await page.locator('[data-testid=suggest-page] [data-testid=state-empty]').waitFor()
  await both('suggest-empty')
  // Too short: said inline, nothing sent.
  await $('fb-content').fill('太短')
  await $('fb-submit').click()
  await $('fb-error').waitFor()
  // A real picture: a screenshot of the page itself.
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: 240, height: 240 } })
  await $('fb-file').setInputFiles({ name: 'shot.png', mimeType: 'image/png', buffer: png })
  await page.locator('[data-testid=fb-picture][data-state=ready]').waitFor({ timeout: 15000 })
  await $('fb-content').fill('首页视频加载很慢，截图如下。')
  await $('fb-contact').fill('tg@e2e')
  await both('suggest-filled')
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/mine/feedback') && r.request().method() === 'POST')
  await $('fb-submit').click()
  assert.equal((await sent).status(), 200)
  const record = page.locator('[data-testid=fb-record][data-status=open]')
  await record.waitFor({ timeout: 15000 })
  assert.match(await record.innerText(), /首页视频加载很慢/)
  await record.locator('[data-testid=fb-record-pic]').waitFor()
  assert.equal(await $('fb-content').inputValue(), '')

  const list = await call(server.base, 'GET', '/api/admin/feedback?status=open', { token: opToken })
  assert.equal(list.list.length, 1)
  assert.equal(list.nextCursor, null)
  const fb = list.list[0]
  assert.equal(fb.images.length, 1)
  await call(server.base, 'POST', '/api/admin/feedback/reply', { token: opToken, body: { id: fb.id, reply: '已为你切换到更快的线路，请重试。' } })
  // No reload: the notice's realtime event refetches the list.
  await page.locator('[data-testid=fb-record][data-status=replied] [data-testid=fb-reply]').waitFor({ timeout: 15000 })
  assert.match(await $('fb-reply').innerText(), /更快的线路/)
  await $('fb-reply').scrollIntoViewIfNeeded()
  await both('suggest-replied')
  assert.equal(sql(`SELECT kind || '|' || category || '|' || ref FROM notices WHERE user_id = ${fb.uid}`), `feedback_reply|system|${fb.id}`)
  assert.equal(sql(`SELECT COUNT(*) FROM audit_log WHERE action = 'feedback.reply'`), '1')
})

test('a creator application goes pending, is rejected with a reason, and can be sent again', async () => {
  await page.goto(server.base + '/mine/settled')
  await $('st-name').waitFor({ timeout: 15000 })
  await both('settled-form')
  await $('st-name').fill('阿狸工作室')
  await $('st-contact').fill('tg@ali')
  await $('st-category').selectOption('shortvideo')
  await $('st-intro').fill('专注原创短视频三年，每周更新两次。')
  await $('st-submit').click()
  await page.locator('[data-testid=settled-state][data-state=pending]').waitFor({ timeout: 15000 })
  assert.equal(await $('st-name').count(), 0)
  await both('settled-pending')
  const apps = await call(server.base, 'GET', '/api/admin/settled?status=pending', { token: opToken })
  await call(server.base, 'POST', '/api/admin/settled/reject', { token: opToken, body: { id: apps.list[0].id, reason: '请补充作品链接' } })
  // No reload: the decision's notice refetches the page.
  await page.locator('[data-testid=settled-state][data-state=rejected]').waitFor({ timeout: 15000 })
  assert.match(await $('settled-state-text').innerText(), /请补充作品链接/)
  assert.equal(await $('st-name').inputValue(), '阿狸工作室')
  await both('settled-rejected')
})

test('Mine has the support entries; customer service opens the configured page', async () => {
  // The seed's CUST entry is the feedback page, opened in the app.
  const cust = page.waitForResponse((r) => r.url().endsWith('/api/app/im/whiteSign'))
  await page.goto(server.base + '/mine')
  await $('mine-entry-groups').waitFor({ timeout: 15000 })
  assert.equal(await $('mine-entry-settled').getAttribute('href'), '/mine/settled')
  assert.equal((await cust).status(), 200)
  await $('mine-entry-kefu').click()
  await page.waitForURL(/\/mine\/suggest$/, { timeout: 15000 })
  assert.deepEqual(phone.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
})
