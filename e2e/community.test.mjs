// The community tab, topic pages, my topics and a user's posts, on an iPhone
// against the real server and its seeded community. An author posts through
// the API (pictures uploaded, one article) into two of the community's
// sub-modules and two seeded topics; a hidden topic is written into the
// database (the operator's topic calls belong to moderation). A reader
// registers, browses 推荐 / 最新 / sub-modules (each list as the API orders
// it), opens a hot topic, follows it, finds it in 我的话题 and unfollows it
// there, follows the author and sees the 关注 feed, and sees their own
// pending and rejected posts on /myhome; the operator's COMMUNITYLAYOUT
// switches between one column and the two-column waterfall. Light, dark,
// 320 px and offline screenshots.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { call, OPERATOR, operatorSetup } from './media.mjs'

const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'
let server, P, op, author, topics, modules
const posts = {}
const failed = []

const $ = (id) => P.page.locator(`[data-testid=${id}]`)

async function both(name) {
  for (const scheme of ['light', 'dark']) {
    await P.page.emulateMedia({ colorScheme: scheme })
    await shot(P.page, `community-${name}-${scheme}`)
  }
  await P.page.emulateMedia({ colorScheme: 'light' })
}

function sql(statement) {
  return execFileSync('sqlite3', ['-cmd', '.timeout 5000', join(server.env.PRIMA_DATA_DIR, 'prima.db'), statement]).toString().trim()
}

async function upload(token, colour) {
  const dir = mkdtempSync(join(tmpdir(), 'prima-pic-'))
  try {
    const out = join(dir, 'p.png')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=480x360`, '-frames:v', '1', out])
    const form = new FormData()
    form.append('file', new Blob([readFileSync(out)], { type: 'image/png' }), 'p.png')
    const { id } = await call(server.base, 'POST', '/api/app/vid/uploadStatic', { token, form })
    const deadline = Date.now() + 30_000
    for (;;) {
      const a = await call(server.base, 'GET', `/api/app/vid/uploadStatic?id=${id}`, { token })
      if (a.state === 'ready') return id
      if (a.state === 'failed' || Date.now() > deadline) throw new Error(`picture ${id}: ${a.state}`)
      await new Promise((r) => setTimeout(r, 200))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function setLayout(title) {
  await call(server.base, 'POST', '/api/admin/source', { token: await consoleToken(server.base, OPERATOR), body: { key: 'COMMUNITYLAYOUT', entries: [{ title, url: '', weight: 1 }] } })
}

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  op = { token: await consoleToken(server.base, OPERATOR) } // the operator console's token (password + TOTP)
  author = await call(server.base, 'POST', '/api/app/mine/register', { body: { account: 'ca_' + stamp, passWord: PASSWORD } })
  sql(`INSERT INTO topics (name, description, sort, status, created_at) VALUES ('下线话题', '', 99, 0, 3)`)
  topics = Object.fromEntries(sql(`SELECT name || '=' || id FROM topics`).split('\n').map((l) => l.split('=')).map(([k, v]) => [k, Number(v)]))
  assert.ok(topics['猫狗日记'] && topics['旅行见闻'], 'the seed has its topics')
  const mods = await call(server.base, 'GET', '/api/app/modules/list?moduleType=1')
  modules = mods[0].subModules
  const pics = []
  for (const c of ['orange', 'teal', 'purple', 'pink']) pics.push(await upload(author.token, c))
  const post = (body) => call(server.base, 'POST', '/api/app/community/post', { token: author.token, body: { clientID: `${stamp}-${Math.random()}`, ...body } })
  posts.cats = (await post({ kind: 'picture', text: '我家的猫今天又霸占了键盘 🐱', pictures: pics.slice(0, 3), topicID: topics['猫狗日记'], moduleID: modules[0].id })).id
  posts.trip = (await post({ kind: 'article', title: '周末去海边', html: '<p>一个人的旅行，<b>海风</b>很舒服。</p>', topicID: topics['旅行见闻'], moduleID: modules[4].id })).id
  posts.one = (await post({ kind: 'picture', text: '早起打卡，今天的晚霞', pictures: [pics[3]] })).id
  // Likes and comments make the cat post the hottest of the month.
  sql(`UPDATE posts SET like_count = 120, comment_count = 30 WHERE id = ${posts.cats}`)
  await setLayout('单列')

  P = await launchPhone()
  P.page.on('response', (r) => { if (r.status() >= 500) failed.push(`${r.status()} ${new URL(r.url()).pathname}`) })
  await P.page.goto(server.base + '/')
  await P.page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(P.page) // home shows while the guest signs in
  await P.page.goto(server.base + '/mine/register')
  await $('register-account').fill('cr_' + stamp)
  await $('register-password').fill(PASSWORD)
  await $('register-confirm').fill(PASSWORD)
  await $('register-submit').click()
  await P.page.waitForURL(/\/mine$/, { timeout: 15000 })
})

after(async () => {
  await P?.browser.close()
  await server?.stop()
})

const cardIds = async () => (await $('post-card').evaluateAll((els) => els.map((e) => Number(e.dataset.postId))))
const apiIds = async (query) => (await call(server.base, 'GET', `/api/app/community/posts?${query}`)).list.map((p) => p.id)

// showing waits until the list shows exactly the first page the API
// answers for query (the page's order is the server's).
async function showing(query) {
  const want = await apiIds(query)
  await P.page.waitForFunction((ids) => {
    const got = [...document.querySelectorAll('[data-testid=post-card]')].map((e) => Number(e.dataset.postId))
    return got.length === ids.length && got.every((id, i) => id === ids[i])
  }, want, { timeout: 10000 })
  return want
}

test('the community tab lists the posts in one column, with hot topics', async () => {
  await P.page.goto(server.base + '/community')
  await $('post-card').first().waitFor({ timeout: 15000 })
  assert.equal(await $('post-list').getAttribute('data-columns'), '1')
  assert.equal(await P.page.locator('.community-one-column').count(), 1)
  // 推荐: featured posts first, then the month's hottest: the cat post.
  assert.equal(await $('community-feed').nth(1).getAttribute('aria-selected'), 'true')
  const ids = await showing('feed=recommend')
  const featured = (await call(server.base, 'GET', '/api/app/community/posts?feed=recommend')).list.filter((p) => p.featured).length
  assert.ok(featured > 0, 'the seed features posts')
  assert.equal(ids[featured], posts.cats)
  assert.equal(await $('post-card').first().locator('text=精华').count(), 1)
  const cat = P.page.locator(`[data-testid=post-card][data-post-id="${posts.cats}"]`)
  assert.equal(await cat.locator('[data-testid=post-pictures]').getAttribute('data-count'), '3')
  assert.match(await cat.locator('[data-testid=post-topic]').innerText(), /猫狗日记/)
  await $('community-topic').first().waitFor()
  assert.equal(await P.page.locator('[data-testid=community-topic]', { hasText: '下线话题' }).count(), 0)
  await cat.scrollIntoViewIfNeeded()
  await both('recommend')
  await P.page.evaluate(() => window.scrollTo(0, 0))
})

test('最新 and the sub-module chips switch the list', async () => {
  await $('community-feed').nth(2).click()
  const ids = await showing('feed=new')
  assert.deepEqual(ids.slice(0, 3), [posts.one, posts.trip, posts.cats])
  const trip = P.page.locator(`[data-testid=post-card][data-post-id="${posts.trip}"]`)
  assert.match(await trip.innerText(), /周末去海边/)
  assert.doesNotMatch(await trip.innerHTML(), /<b>海风/, 'a card shows text, never the html')
  await P.page.locator(`[data-testid=community-module][data-module-id="${modules[4].id}"]`).click()
  assert.ok((await showing(`moduleID=${modules[4].id}`)).includes(posts.trip))
  assert.equal(await $('community-feed').nth(2).getAttribute('aria-selected'), 'false')
  await P.page.locator(`[data-testid=community-module][data-module-id="${modules[0].id}"]`).click()
  const first = await showing(`moduleID=${modules[0].id}`)
  assert.ok(first.includes(posts.cats) && !first.includes(posts.trip))
  await $('community-sort').nth(1).click()
  await showing(`moduleID=${modules[0].id}&sort=hot`)
  await $('community-sort').nth(0).click()
  await shot(P.page, 'community-module-light')
})

test('a hot topic opens its page; following it shows in 我的话题 and unfollows in place', async () => {
  await $('community-feed').nth(1).click()
  const hot = (await call(server.base, 'GET', '/api/app/community/topics?sort=hot')).list[0]
  await $('community-topic').first().click()
  await P.page.waitForURL(new RegExp(`/community/topic/${hot.id}$`))
  await $('topic-header').waitFor({ timeout: 10000 })
  assert.match(await $('topic-name').innerText(), new RegExp(hot.name))
  assert.match(await $('topic-post-count').innerText(), new RegExp(String(hot.postCount)))
  await showing(`topicID=${hot.id}&sort=hot`)
  await $('topic-sort').nth(1).click()
  await showing(`topicID=${hot.id}&sort=new`)
  assert.equal(await $('topic-follow').getAttribute('data-following'), '0')
  const fans = hot.followCount
  const done = P.page.waitForResponse((r) => r.url().endsWith('/api/app/community/topic/follow'))
  await $('topic-follow').click()
  // Optimistic: the button turns before the server answers (the render after
  // the tap may land a frame later on a busy machine, so wait for it, not
  // for the response).
  await P.page.waitForFunction(() => document.querySelector('[data-testid=topic-follow]')?.getAttribute('data-following') === '1')
  assert.equal((await done).status(), 200)
  await P.page.waitForFunction((n) => (document.querySelector('[data-testid=topic-follow-count]')?.textContent ?? '').includes(String(n)), fans + 1)
  await shot(P.page, 'community-topic-light')

  await P.page.goto(server.base + '/mine/usertopic')
  await $('usertopic-row').first().waitFor({ timeout: 10000 })
  assert.equal(await $('usertopic-row').count(), 1)
  assert.match(await $('usertopic-row').first().innerText(), new RegExp(hot.name))
  await both('usertopic')
  await $('topic-follow').click()
  await P.page.waitForFunction(() => document.querySelector('[data-testid=topic-follow]')?.getAttribute('data-following') === '0')
  assert.equal(await $('usertopic-row').count(), 1, 'the row stays until the next visit')
  await P.page.reload()
  await $('usertopic-empty').waitFor({ timeout: 10000 })
  await shot(P.page, 'community-usertopic-empty-light')

  // A hidden topic is not found.
  await P.page.goto(server.base + `/community/topic/${topics['下线话题']}`)
  await $('topic-missing').waitFor({ timeout: 10000 })
  await shot(P.page, 'community-topic-missing-light')
})

test('the 关注 feed lists the posts of followed users', async () => {
  await P.page.goto(server.base + '/community')
  await $('community-feed').first().click()
  await $('post-list-empty').waitFor({ timeout: 10000 })
  const token = await P.page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  await call(server.base, 'POST', '/api/app/mine/follow', { token, body: { followUID: author.user.uid, isFollow: true } })
  await P.page.reload()
  await $('post-card').first().waitFor({ timeout: 10000 })
  assert.equal((await cardIds()).length, 3)
  await shot(P.page, 'community-follow-light')
})

test('COMMUNITYLAYOUT 双列 makes the list a two-column waterfall', async () => {
  await setLayout('双列')
  await $('community-feed').nth(1).click()
  await P.page.reload()
  await P.page.locator('.community-two-column').waitFor({ timeout: 15000 })
  assert.equal(await $('post-list').getAttribute('data-columns'), '2')
  const tiles = await P.page.locator('[data-testid=post-card][data-layout=tile]').count()
  assert.ok(tiles >= 3 && tiles === (await $('post-card').count()), `${tiles} tiles`)
  assert.ok(await P.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'the waterfall overflows')
  await P.page.emulateMedia({ colorScheme: 'dark' })
  await shot(P.page, 'community-waterfall-dark')
  await P.page.emulateMedia({ colorScheme: 'light' })
  await setLayout('单列')
})

test("a user's page lists their posts under 帖子", async () => {
  await P.page.goto(server.base + `/usercenter/${author.user.uid}`)
  await $('tab-posts').click()
  await $('user-posts').locator('[data-testid=post-card]').first().waitFor({ timeout: 10000 })
  assert.equal(await $('user-posts').locator('[data-testid=post-card]').count(), 3)
  await shot(P.page, 'community-usercenter-light')
})

test('/myhome lists my own posts with their states', async () => {
  const token = await P.page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const pic = await upload(token, 'navy')
  sql(`UPDATE community_settings SET review = 1 WHERE id = 1`)
  const mine = (text) => call(server.base, 'POST', '/api/app/community/post', { token, body: { kind: 'picture', text, pictures: [pic] } })
  const pending = await mine('等待审核的一条')
  assert.equal(pending.state, 'pending')
  const rejected = await mine('会被拒绝的一条')
  sql(`UPDATE posts SET state = 'rejected', reason = '含有广告' WHERE id = ${rejected.id}`)
  sql(`UPDATE community_settings SET review = 0 WHERE id = 1`)
  await P.page.goto(server.base + '/myhome')
  await $('tab-posts').click()
  await $('user-posts').locator('[data-testid=post-card]').nth(1).waitFor({ timeout: 10000 })
  const states = await $('post-state').evaluateAll((els) => els.map((e) => [e.dataset.state, e.textContent]))
  assert.deepEqual(states, [['rejected', '未通过：含有广告'], ['pending', '审核中']])
  await shot(P.page, 'community-myhome-light')
  // Nobody else sees them.
  const list = await call(server.base, 'GET', `/api/app/community/posts?feed=new`)
  assert.ok(!list.list.some((p) => p.id === pending.id || p.id === rejected.id))
})

test('the narrowest phone: nothing runs off the side', async () => {
  await P.page.setViewportSize({ width: 320, height: 640 })
  await P.page.goto(server.base + '/community')
  await $('post-card').first().waitFor({ timeout: 10000 })
  assert.ok(await P.page.evaluate(() => document.documentElement.scrollWidth <= 320), 'the community tab overflows at 320 px')
  await shot(P.page, 'community-320-light')
  await P.page.setViewportSize({ width: 390, height: 664 })
})

test('offline: a list that cannot load shows the offline state', async () => {
  await P.page.goto(server.base + '/community')
  await $('post-card').first().waitFor({ timeout: 10000 })
  await P.context.setOffline(true)
  await P.page.locator(`[data-testid=community-module][data-module-id="${modules[1].id}"]`).click()
  await $('state-offline').waitFor({ timeout: 20000 })
  await shot(P.page, 'community-offline-light')
  await P.context.setOffline(false)
  assert.deepEqual(failed, [])
})
