// Community moderation, as an iPhone 13 (Chromium) against the real server:
// the seeded operator turns review on (POST /api/admin/community/settings);
// a registered user publishes two articles through the publishing page, both
// held as pending; the operator approves one and rejects the other with a
// reason; the author sees both decisions, the reason included, under
// 系统通知 in /mine/message; the approved post is in the community feed and
// the rejected one is not; a second user's report reaches the operator's
// report queue; a muted author is refused on the publishing page with a tip
// that names the end of the mute, and publishes again once unmuted.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call } from './media.mjs'

const stamp = Date.now().toString(36).slice(-6)
const AUTHOR = 'mod_a' + stamp
const READER = 'mod_r' + stamp
const PASSWORD = 'secret12'
const REASON = '图片与话题无关，请修改后重新发布'

let server, phone, page, opToken, authorToken, authorUID, readerToken, approved, rejected
const $ = (id) => page.locator(`[data-testid=${id}]`)

// raw calls the API and returns the envelope whatever its code.
async function raw(method, path, { token, body } = {}) {
  const headers = { 'Content-Type': 'application/json', 'X-App-Client': 'devID=e2emoderation00000001;ver=1.1.3;dev=ios;h5=1' }
  if (token) headers.Authorization = `Bearer ${token}`
  const r = await fetch(server.base + path, { method, headers, body: body ? JSON.stringify(body) : undefined })
  return { status: r.status, ...(await r.json()) }
}


before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  phone = await launchPhone()
  page = phone.page
  opToken = await consoleToken(server.base, OPERATOR) // the operator console's token (password + TOTP)
  const reader = await call(server.base, 'POST', '/api/app/mine/register', { body: { account: READER, passWord: PASSWORD } })
  readerToken = reader.token
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

test('the operator turns review on', async () => {
  const st = await call(server.base, 'POST', '/api/admin/community/settings', { token: opToken, body: { review: true, rules: '友善交流，禁止广告。' } })
  assert.equal(st.review, true)
  // A user's (phone-app) token cannot: it opens nothing under /api/admin.
  const refused = await raw('POST', '/api/admin/community/settings', { token: readerToken, body: { review: false } })
  assert.equal(refused.status, 401)
})

// publishArticle writes and publishes an article through the publishing page.
async function publishArticle(title, body) {
  await page.goto(server.base + '/community/publisharticle')
  await $('publish-title').waitFor({ timeout: 15000 })
  await $('publish-title').fill(title)
  await $('publish-editor').click()
  await page.keyboard.type(body)
  await $('publish-submit').click()
}

test('a registered iPhone user publishes two posts through the app, both held for review', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/register')
  await $('register-account').fill(AUTHOR)
  await $('register-password').fill(PASSWORD)
  await $('register-confirm').fill(PASSWORD)
  await $('register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  authorToken = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  authorUID = (await call(server.base, 'GET', '/api/app/mine/info', { token: authorToken })).uid
  for (const [title, body] of [['周末去爬山', '周末去爬山的正文，山顶的风景很好。'], ['随手拍的街景', '随手拍的街景，傍晚的路口。']]) {
    await publishArticle(title, body)
    // Held for review: the app says so and goes to my page.
    await page.waitForURL(/\/myhome/, { timeout: 15000 })
  }
  const queue = await call(server.base, 'GET', `/api/admin/community/posts?state=pending&uid=${authorUID}`, { token: opToken })
  assert.equal(queue.list.length, 2)
  assert.equal(queue.nextCursor, null)
  approved = queue.list.find((p) => p.title === '周末去爬山').id
  rejected = queue.list.find((p) => p.title === '随手拍的街景').id
  assert.ok(queue.list.every((p) => p.state === 'pending'))
})

test('the operator approves one and rejects the other with a reason; deciding again is refused', async () => {
  const ok = await call(server.base, 'POST', '/api/admin/community/posts/review', { token: opToken, body: { id: approved, approve: true } })
  assert.equal(ok.state, 'published')
  const noReason = await raw('POST', '/api/admin/community/posts/review', { token: opToken, body: { id: rejected, approve: false } })
  assert.equal(noReason.status, 422)
  const no = await call(server.base, 'POST', '/api/admin/community/posts/review', { token: opToken, body: { id: rejected, approve: false, reason: REASON } })
  assert.equal(no.state, 'rejected')
  assert.equal(no.reason, REASON)
  const twice = await raw('POST', '/api/admin/community/posts/review', { token: opToken, body: { id: approved, approve: false, reason: 'x' } })
  assert.equal(twice.status, 409)
})

test('the author sees both decisions, with the reason, under 系统通知', async () => {
  await page.goto(server.base + '/mine/message?tab=system')
  await $('notices-system').waitFor({ timeout: 15000 })
  const rows = page.locator('[data-testid=notice-row][data-kind=post_review]')
  await rows.nth(1).waitFor({ timeout: 15000 })
  assert.equal(await rows.count(), 2)
  const text = await $('notices-system').innerText()
  assert.match(text, /你的帖子已通过审核/)
  assert.match(text, /你的帖子未通过审核/)
  assert.ok(text.includes(REASON), 'the reason is shown')
  assert.match(text, /周末去爬山/)
  await shot(page, 'moderation-notices')
})

test('the approved post is in the community feed, the rejected one is not', async () => {
  const feed = await call(server.base, 'GET', '/api/app/community/posts?feed=new&pageSize=50')
  const ids = feed.list.map((p) => p.id)
  assert.ok(ids.includes(approved), 'approved post listed')
  assert.ok(!ids.includes(rejected), 'rejected post not listed')
  // The author still sees the rejected one among their own, with its reason.
  const mine = await call(server.base, 'GET', `/api/app/community/posts?uid=${authorUID}&pageSize=50`, { token: authorToken })
  const r = mine.list.find((p) => p.id === rejected)
  assert.equal(r?.state, 'rejected')
  assert.equal(r?.reason, REASON)
})

test("a second user's report reaches the operator's queue once", async () => {
  for (let i = 0; i < 2; i++) {
    await call(server.base, 'POST', '/api/app/community/report', { token: readerToken, body: { postID: approved, commentID: 0, reason: 'spam' } })
  }
  const hidden = await raw('POST', '/api/app/community/report', { token: readerToken, body: { postID: rejected, reason: 'spam' } })
  assert.equal(hidden.status, 404)
  const q = await call(server.base, 'GET', '/api/admin/community/reports?state=open', { token: opToken })
  const mine = q.list.filter((r) => r.postId === approved)
  assert.equal(mine.length, 1)
  assert.equal(mine[0].reason, 'spam')
  assert.equal(mine[0].targetAuthor.uid, authorUID)
  assert.match(mine[0].text, /周末去爬山的正文/)
  const done = await call(server.base, 'POST', '/api/admin/community/reports/resolve', { token: opToken, body: { id: mine[0].id } })
  assert.equal(done.resolved, 1)
})

test('a muted user is refused with a clear tip, and can post again once unmuted', async () => {
  const m = await call(server.base, 'POST', '/api/admin/community/mute', { token: opToken, body: { uid: authorUID, minutes: 60, reason: '连续发布广告' } })
  assert.ok(m.mutedUntil > Date.now() / 1000)
  await publishArticle('被禁言时发帖', '被禁言时发帖的正文。')
  await $('publish-error').waitFor({ timeout: 15000 })
  assert.match(await $('publish-error').innerText(), /你已被禁言至 \d{4}-\d{2}-\d{2} \d{2}:\d{2}，暂时不能发布/)
  assert.match(page.url(), /publisharticle/)
  await shot(page, 'moderation-muted')
  // The mute was told under 系统通知, with its reason.
  const notices = await call(server.base, 'GET', '/api/app/mine/notices?category=system', { token: authorToken })
  assert.ok(notices.list.some((n) => n.kind === 'muted' && n.body.includes('连续发布广告')))
  await call(server.base, 'POST', '/api/admin/community/mute', { token: opToken, body: { uid: authorUID, minutes: 0 } })
  await $('publish-submit').click()
  await page.waitForURL(/\/myhome/, { timeout: 15000 })
})

test('the page raised no errors', () => {
  assert.deepEqual(phone.errors.filter((e) => !/status of 40[134]/.test(e)), [])
})
