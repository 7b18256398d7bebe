// The community post detail, as two iPhones (two browsers) against the real
// server: A registers and publishes a picture post (through the API), opens
// it at /cdetail/{id}, likes it and comments; B opens it, follows A, likes,
// replies to A's comment; A sees the like, comment and reply notices under
// 互动消息 and a notice leads back to the post; B deletes a comment; B
// reports the post; A deletes the post, which is 404 afterwards. Pages are
// screenshotted light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { call } from './media.mjs'

const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'
let server, A, B, postID
const failed = []

before(async () => {
  server = await startServer()
  A = await launchPhone()
  B = await launchPhone()
  for (const [who, p] of [['A', A], ['B', B]]) {
    p.page.on('response', (r) => { if (r.status() >= 500) failed.push(`${who} ${r.status()} ${new URL(r.url()).pathname}`) })
    p.page.on('pageerror', (e) => failed.push(`${who} page error: ${e.message}`))
  }
})

after(async () => {
  await A?.browser.close()
  await B?.browser.close()
  await server?.stop()
})

const $ = (p, id) => p.page.locator(`[data-testid=${id}]`)

async function both(p, name) {
  for (const scheme of ['light', 'dark']) {
    await p.page.emulateMedia({ colorScheme: scheme })
    await shot(p.page, `post-${name}-${scheme}`)
  }
  await p.page.emulateMedia({ colorScheme: 'light' })
}

// open navigates p to path; a navigation the app itself starts at that
// moment (a reload after a realtime hint) is retried once.
async function open(p, path) {
  try {
    await p.page.goto(server.base + path)
  } catch (e) {
    if (!/interrupted by another navigation/.test(String(e))) throw e
    await p.page.goto(server.base + path)
  }
}

async function register(p, account) {
  await p.page.goto(server.base + '/')
  await p.page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p.page) // home shows while the guest signs in
  await p.page.goto(server.base + '/mine/register')
  await $(p, 'register-account').fill(account)
  await $(p, 'register-password').fill(PASSWORD)
  await $(p, 'register-confirm').fill(PASSWORD)
  await $(p, 'register-submit').click()
  await p.page.waitForURL(/\/mine$/, { timeout: 15000 })
  p.token = await p.page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  p.uid = (await call(server.base, 'GET', '/api/app/mine/info', { token: p.token })).uid
  await call(server.base, 'POST', '/api/app/mine/info', { token: p.token, body: { name: account } })
}

// uploadPicture uploads a JPEG (a screenshot of the page) as p's picture.
async function uploadPicture(p) {
  const jpeg = await p.page.screenshot({ type: 'jpeg', quality: 70 })
  const form = new FormData()
  form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'pic.jpg')
  return (await call(server.base, 'POST', '/api/app/vid/uploadStatic', { token: p.token, form })).id
}

test('A publishes a picture post and opens it: text, pictures, viewer', async () => {
  await register(A, 'posta_' + stamp)
  await register(B, 'postb_' + stamp)
  const pics = [await uploadPicture(A), await uploadPicture(A)]
  const created = await call(server.base, 'POST', '/api/app/community/post', {
    token: A.token,
    body: { kind: 'picture', title: '周末的海边', text: '第一行\n第二行，很长很长的一段文字'.repeat(3), pictures: pics, clientID: 'e2e-' + stamp },
  })
  postID = created.id
  assert.equal(created.state, 'published')
  const p = A.page
  await p.goto(`${server.base}/cdetail/${postID}`)
  await $(A, 'post-title').waitFor()
  assert.equal(await $(A, 'post-title').innerText(), '周末的海边')
  assert.match(await $(A, 'post-text').innerText(), /第一行\n第二行/)
  assert.equal(await $(A, 'post-picture').count(), 2)
  assert.equal(await $(A, 'post-follow').count(), 0, 'no follow button on one’s own post')
  await $(A, 'post-no-comments').waitFor()
  await both(A, 'detail')
  await $(A, 'post-picture').first().click()
  await $(A, 'viewer-counter').waitFor()
  assert.equal(await $(A, 'viewer-counter').innerText(), '1/2')
  await shot(p, 'post-viewer')
  await $(A, 'viewer-close').click()
})

test('A likes (optimistic) and comments on the post', async () => {
  const p = A.page
  await $(A, 'post-like').click()
  await p.locator('[data-testid=post-like][aria-pressed=true]').waitFor()
  await p.locator('[data-testid=post-like-count]', { hasText: '1' }).waitFor()
  await $(A, 'composer-field').fill('沙发！\n第二行')
  const sent = p.waitForResponse((r) => r.url().endsWith('/api/app/community/comment'))
  await $(A, 'composer-send').click()
  assert.equal((await sent).status(), 200)
  await p.locator('[data-testid=comment-text]', { hasText: '沙发！' }).waitFor()
  await p.locator('[data-testid=post-comment-count]', { hasText: '1' }).waitFor()
  await both(A, 'commented')
})

test('B opens the post, follows A, likes and replies to A’s comment', async () => {
  const p = B.page
  await p.goto(`${server.base}/cdetail/${postID}`)
  await $(B, 'post-follow').waitFor()
  await $(B, 'post-follow').click()
  await p.locator('[data-testid=post-follow][aria-pressed=true]').waitFor()
  await $(B, 'post-like').click()
  await p.locator('[data-testid=post-like-count]', { hasText: '2' }).waitFor()
  await $(B, 'comment-reply').first().click()
  await $(B, 'composer-target').waitFor()
  assert.match(await $(B, 'composer-target').innerText(), /回复 @posta_/)
  await $(B, 'composer-field').fill('说得好 ' + 'ha'.repeat(60))
  await both(B, 'replying')
  await $(B, 'composer-send').click()
  await p.locator('[data-testid=reply] [data-testid=comment-text]', { hasText: '说得好' }).waitFor()
  await $(B, 'composer-field').fill('B 的一条评论')
  await $(B, 'composer-send').click()
  await p.locator('[data-testid=comment-text]', { hasText: 'B 的一条评论' }).waitFor()
  await both(B, 'replied')
  const d = await call(server.base, 'GET', `/api/app/community/post?id=${postID}`, { token: B.token })
  assert.equal(d.likeCount, 2)
  assert.equal(d.commentCount, 3)
  assert.equal(d.following, true)
})

test('A sees the notices under 互动消息 and one leads back to the post', async () => {
  const p = A.page
  await p.goto(server.base + '/mine/message')
  await $(A, 'msg-tab-interaction').click()
  const like = p.locator('[data-testid=notice-row][data-kind=post_like]')
  await like.waitFor({ timeout: 10000 })
  await p.locator('[data-testid=notice-row][data-kind=comment]').waitFor()
  await p.locator('[data-testid=notice-row][data-kind=reply]').waitFor()
  await both(A, 'notices')
  await like.locator('[data-testid=notice-link]').click()
  await p.waitForURL(new RegExp(`/cdetail/${postID}$`))
  await $(A, 'post-title').waitFor()
})

test('B deletes its own comment; B reports the post', async () => {
  const p = B.page
  await p.goto(`${server.base}/cdetail/${postID}`)
  const mine = p.locator('[data-testid=comment]', { hasText: 'B 的一条评论' })
  await mine.locator('[data-testid=comment-delete]').first().click()
  await $(B, 'comment-delete-ok').click()
  await mine.waitFor({ state: 'detached' })
  await p.locator('[data-testid=post-comment-count]', { hasText: '2' }).waitFor()
  await $(B, 'post-more').click()
  await $(B, 'post-menu').waitFor()
  assert.equal(await $(B, 'post-menu-delete').count(), 0, 'only the author may delete')
  await $(B, 'post-menu-report').click()
  await $(B, 'post-report-sheet').waitFor()
  await both(B, 'report')
  const reported = p.waitForResponse((r) => r.url().endsWith('/api/app/community/report'))
  await p.locator('[data-testid=post-report-reason][data-code=spam]').click()
  assert.equal((await reported).status(), 200, 'the report is taken')
})

test('paid posts are locked for B: a gold article shows 200 characters and the buy button, a VIP one the VIP centre', async () => {
  const long = '<p>' + '付费内容'.repeat(80) + '</p>'
  const gold = await call(server.base, 'POST', '/api/app/community/post', {
    token: A.token, body: { kind: 'article', title: '付费文章', html: long, coins: 10, clientID: 'gold-' + stamp },
  })
  const vip = await call(server.base, 'POST', '/api/app/community/post', {
    token: A.token, body: { kind: 'article', title: '会员文章', html: long, vipLevel: 1, clientID: 'vip-' + stamp },
  })
  const p = B.page
  await p.goto(`${server.base}/cdetail/${gold.id}`)
  await $(B, 'post-paywall').waitFor()
  await $(B, 'paywall-buy').waitFor()
  assert.equal(await $(B, 'post-article').count(), 0, 'a locked article has no html')
  assert.equal([...(await $(B, 'post-text').innerText())].length, 201) // 200 characters and the ellipsis
  await both(B, 'locked-gold')
  await p.goto(`${server.base}/cdetail/${vip.id}`)
  await $(B, 'paywall-vip').waitFor()
  assert.equal(await $(B, 'paywall-vip').getAttribute('href'), '/mine/vipcenter')
  // The author sees all of it.
  await A.page.goto(`${server.base}/cdetail/${gold.id}`)
  await $(A, 'post-article').waitFor()
  assert.equal(await $(A, 'post-paywall').count(), 0)
})

test('a paid video post: B plays the preview, then the paywall; the author plays the whole', async () => {
  const work = mkdtempSync(join(tmpdir(), 'prima-post-clip-'))
  let asset
  try {
    const out = join(work, 'clip.mp4')
    // 9 s: a third is one whole 2 s segment of preview (3 s would have none).
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=teal:s=360x640:d=9', '-f', 'lavfi', '-i', 'sine=d=9',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out])
    const form = new FormData()
    form.append('file', new Blob([readFileSync(out)], { type: 'video/mp4' }), 'clip.mp4')
    asset = (await call(server.base, 'POST', '/api/app/vid/uploadStatic', { token: A.token, form })).id
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  const created = await call(server.base, 'POST', '/api/app/community/post', {
    token: A.token, body: { kind: 'video', title: '海浪', text: '听听海浪声', videoAssetID: asset, coins: 5, clientID: 'video-' + stamp },
  })
  const deadline = Date.now() + 60_000
  while ((await call(server.base, 'GET', `/api/app/vid/uploadStatic?id=${asset}`, { token: A.token })).state !== 'ready') {
    assert.ok(Date.now() < deadline, 'the clip was not transcoded in time')
    await new Promise((r) => setTimeout(r, 300))
  }
  const p = B.page
  await open(B, `/cdetail/${created.id}`)
  await p.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  const src = await call(server.base, 'GET', `/api/app/community/post?id=${created.id}`, { token: B.token })
  assert.ok(src.playback.preview && !src.playback.master, 'B gets the preview only')
  await p.evaluate(() => { const v = document.querySelector('video'); v.muted = true; return v.play() })
  await $(B, 'paywall-buy').waitFor({ timeout: 20000 })
  await both(B, 'video-previewed')
  await open(A, `/cdetail/${created.id}`)
  await A.page.locator('[data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  assert.equal(await $(A, 'paywall-buy').count(), 0)
  const mine = await call(server.base, 'GET', `/api/app/community/post?id=${created.id}`, { token: A.token })
  assert.ok(mine.playback.master, 'the author gets the master')
})

test('A deletes the post: it is 404 afterwards', async () => {
  const p = A.page
  await open(A, `/cdetail/${postID}`)
  await $(A, 'post-more').click()
  await $(A, 'post-menu-delete').click()
  await $(A, 'post-delete-sheet').waitFor()
  await both(A, 'delete-confirm')
  const deleted = p.waitForResponse((r) => r.url().endsWith('/api/app/community/post/delete'))
  await $(A, 'post-delete-ok').click()
  assert.equal((await deleted).status(), 200)
  // The page leaves the deleted post (back, or the community tab).
  await p.waitForURL((u) => u.pathname !== `/cdetail/${postID}`)
  await open(A, `/cdetail/${postID}`)
  await $(A, 'post-notfound').waitFor()
  await both(A, 'notfound')
  await assert.rejects(call(server.base, 'GET', `/api/app/community/post?id=${postID}`), /404/)
  assert.deepEqual(failed, [])
})
