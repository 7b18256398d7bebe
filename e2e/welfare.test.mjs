// Welfare (/mine/userfulitask) as an iPhone 13 against the real seeded
// server: a guest checks in (the button turns done, points rise and a
// second check-in is refused), likes a video so the daily like task becomes
// claimable and claims it, then exchanges a points prize through the
// confirm sheet (points fall, coins rise). Screenshots light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call, shortFeedIds } from './media.mjs'

let server, phone, page, opToken
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  opToken = await consoleToken(server.base, OPERATOR) // the operator console's token (password + TOTP)
  phone = await launchPhone()
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

async function userCall(method, path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  return call(server.base, method, path, { token, body })
}

async function both(name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await shot(page, `welfare-${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

const points = async () => Number(await $('wf-points').textContent())

test('a guest checks in once; the button turns done and points rise', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/userfulitask')
  await $('wf-checkin-btn').waitFor({ timeout: 15000 })
  await $('wf-tasks').waitFor()
  await $('wf-prizes').waitFor()
  await both('before')
  assert.equal(await $('wf-checkin-btn').getAttribute('data-done'), '0')
  assert.equal(await points(), 0)
  // A screen reader hears the task's title and then its kind, not the tag
  // glued to a title that repeats it (每日每日签到).
  const task = page.locator('[data-testid=wf-task-checkin]')
  const heard = await task.ariaSnapshot()
  assert.doesNotMatch(heard, /每日\s*每日签到/)
  assert.match(heard, /每日签到\s*，每日任务/)
  const day = (await userCall('GET', '/api/app/active/checkin')).todayReward.points
  const taskPoints = (await userCall('GET', '/api/app/active/task')).find((x) => x.metric === 'checkin').reward.points
  const [res] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/api/app/active/checkin') && r.request().method() === 'POST'), $('wf-checkin-btn').click()])
  await page.locator('[data-testid=wf-checkin-btn][data-done="1"]').waitFor({ timeout: 10000 })
  // One tap: the check-in and its 每日签到 task, both paid, the task shown done.
  assert.equal((await res.json()).data.tasks.length, 1)
  await page.locator('[data-testid=wf-task-checkin][data-state=claimed]').waitFor({ timeout: 10000 })
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid=wf-points]')?.textContent) === n, day + taskPoints)
  await page.locator('.adm-toast-main', { hasText: '每日签到' }).waitFor({ timeout: 5000 })
  await both('checked')
  // Again, through the API: refused, nothing granted.
  const before = await points()
  const r = await fetch(server.base + '/api/app/active/checkin', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + (await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token')))) },
    body: '{}',
  })
  assert.equal(r.status, 409)
  assert.equal((await r.json()).tip, '今日已签到')
  const st = await userCall('GET', '/api/app/active/checkin')
  assert.equal(st.points, before)
  // The narrowest phone: the 7-day strip still fits without a scrollbar.
  const size = page.viewportSize()
  await page.setViewportSize({ width: 320, height: 640 })
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= 320), 'no sideways scroll at 320 px')
  await shot(page, 'welfare-320')
  await page.setViewportSize(size)
})

test('liking a video makes the like task claimable; claiming it pays once', async () => {
  const like = page.locator('[data-testid=wf-task-like]')
  assert.equal(await like.getAttribute('data-state'), 'todo')
  const { ids } = await shortFeedIds(server.base, 1)
  await userCall('POST', '/api/app/vid/like', { id: ids[0], isLike: true })
  await page.reload()
  await page.locator('[data-testid=wf-task-like][data-state=claimable]').waitFor({ timeout: 10000 })
  const before = await points()
  await like.locator('[data-testid=wf-claim]').click()
  await page.locator('[data-testid=wf-task-like][data-state=claimed]').waitFor({ timeout: 10000 })
  await page.waitForFunction((b) => Number(document.querySelector('[data-testid=wf-points]')?.textContent) > b, before)
  const tasks = await userCall('GET', '/api/app/active/task')
  const t = tasks.find((x) => x.metric === 'like')
  const r = await fetch(server.base + '/api/app/active/task/receive', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer ' + (await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token')))) },
    body: JSON.stringify({ id: t.id }),
  })
  assert.equal(r.status, 409, 'a second claim is refused')
})

test('a points prize is exchanged through the confirm sheet', async () => {
  // The operator adds a prize a new user can afford (audited, checked by
  // the wallet's reward rules); a bad one is refused.
  await assert.rejects(
    call(server.base, 'POST', '/api/admin/rewards/prizes', { token: opToken, body: { title: '坏', cost: 10, reward: { coins: -5 }, active: true } }),
    /配置无效/,
  )
  const { id } = await call(server.base, 'POST', '/api/admin/rewards/prizes', {
    token: opToken,
    body: { title: '新人5金币', cost: 10, reward: { coins: 5 }, stock: 5, perUserLimit: 1, active: true, sort: -1 },
  })
  await page.reload()
  await $('wf-prizes').waitFor({ timeout: 10000 })
  const have = await points()
  assert.ok(have >= 10, `the guest has ${have} points`)
  const prizes = await userCall('GET', '/api/app/active/point/prize')
  const idx = prizes.list.findIndex((p) => p.id === id)
  assert.equal(idx, 0, 'the new prize sorts first')
  await page.locator('[data-testid=wf-prize]').nth(idx).locator('[data-testid=wf-exchange]').click()
  await $('wf-sheet').waitFor()
  await both('sheet')
  await $('wf-confirm').click()
  await $('wf-sheet').waitFor({ state: 'detached', timeout: 10000 })
  await page.waitForFunction((h) => Number(document.querySelector('[data-testid=wf-points]')?.textContent) === h - 10, have)
  const wallet = await userCall('GET', '/api/app/mine/wallet')
  assert.equal(wallet.coins, 5, 'the prize paid 5 coins')
  // The per-user limit of 1 disables nothing client-side, but the server refuses a second.
  await assert.rejects(userCall('POST', '/api/app/active/point/prize', { id, idempotencyKey: 'again-000001' }), /已达兑换上限/)
  // The points history lists the spend, newest first, and the check-in.
  await page.locator('[data-testid=wf-record]').first().filter({ hasText: '-10' }).waitFor({ timeout: 10000 })
  assert.ok((await page.locator('[data-testid=wf-record]').count()) >= 3, 'check-in, task and prize entries listed')
  await page.locator('[data-testid=wf-records]').scrollIntoViewIfNeeded()
  await both('after')
})
