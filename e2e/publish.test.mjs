// Publishing, as a registered iPhone user against the real server: Mine's
// 发布 opens the rules and the three kinds; a picture post with two
// pictures (uploaded with progress, reordered, the draft surviving a
// reload), a video post (a small clip, posted while it may still
// transcode) and an article (bold, a list, an inline picture) are each
// published and land on /cdetail/{id}. Bad input is refused clearly: no
// pictures (the button stays off and says why), a text file renamed .jpg
// (the server's tip on the picture), 10 pictures through the API (422). A
// guest sees the register prompt. Every page is screenshotted.
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
let server, phone, page, token, work
let picturePost, pictureTopic // the picture post and its topic, looked for on the topic and author pages
const files = {}
const failed = []

before(async () => {
  work = mkdtempSync(join(tmpdir(), 'prima-publish-'))
  for (const [name, colour] of [['red', 'red'], ['blue', 'blue'], ['green', 'green']]) {
    const f = join(work, name + '.jpg')
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', `color=c=${colour}:s=480x360`, '-frames:v', '1', f])
    files[name] = readFileSync(f)
  }
  const clip = join(work, 'clip.mp4')
  execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=15', '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', clip])
  files.clip = readFileSync(clip)
  server = await startServer()
  phone = await launchPhone()
  page = phone.page
  page.on('response', (r) => {
    if (r.status() >= 500) failed.push(`${r.status()} ${new URL(r.url()).pathname}`)
  })
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
  if (work) rmSync(work, { recursive: true, force: true })
})

const $ = (id) => page.locator(`[data-testid=${id}]`)
// submit taps 发布 and returns the publish call's body and answer.
async function submit() {
  const [r] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/api/app/community/post'), { timeout: 15000 }),
    $('publish-submit').click(),
  ])
  return { body: JSON.parse(r.request().postData() ?? '{}'), status: r.status(), answer: await r.json() }
}
const jpeg = (name) => ({ name: name + '.jpg', mimeType: 'image/jpeg', buffer: files[name] })

test('a registered user opens the rules from Mine and sees the three kinds', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/register')
  await $('register-account').fill('pub_' + stamp)
  await $('register-password').fill(PASSWORD)
  await $('register-confirm').fill(PASSWORD)
  await $('register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  await $('mine-entry-publishrule').click()
  await page.waitForURL(/\/community\/publish\/rule$/)
  await $('publish-kind-picture').waitFor()
  assert.match(await $('publish-rules').innerText(), /原创/, 'the default rules when the operator wrote none')
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 5000 }).catch(() => {})
  await shot(page, 'publish-01-rules')
})

test('a picture post: no pictures is refused, a renamed text file shows the server tip', async () => {
  await $('publish-kind-picture').click()
  await page.waitForURL(/\/community\/publishpicture$/)
  await $('publish-text').fill('周末的两张照片')
  await $('publish-problem').waitFor()
  assert.match(await $('publish-problem').innerText(), /至少添加一张图片/)
  assert.equal(await $('publish-submit').isDisabled(), true)
  await $('publish-picture-input').setInputFiles({ name: 'fake.jpg', mimeType: 'image/jpeg', buffer: Buffer.from('this is no picture at all') })
  await page.locator('[data-testid=publish-picture][data-status=failed]').waitFor({ timeout: 15000 })
  const tip = await page.locator('[data-testid=publish-picture][data-status=failed] [data-testid=publish-picture-retry]').getAttribute('title')
  assert.match(tip ?? '', /不支持|类型|图片/, `tip ${tip}`)
  await shot(page, 'publish-02-bad-picture')
  await page.locator('[data-testid=publish-picture][data-status=failed] [data-testid=publish-remove]').click()
  assert.equal(await $('publish-picture').count(), 0)
})

test('two pictures upload, are reordered, and the draft survives a reload', async () => {
  await $('publish-picture-input').setInputFiles([jpeg('red'), jpeg('blue')])
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=publish-picture][data-status=done]').length === 2, null, { timeout: 20000 })
  const before = await page.locator('[data-testid=publish-picture]').evaluateAll((els) => els.map((e) => Number(e.dataset.id)))
  assert.equal(before.length, 2)
  await page.locator('[data-testid=publish-picture]').first().locator('[data-testid=publish-move-right]').click()
  const after = await page.locator('[data-testid=publish-picture]').evaluateAll((els) => els.map((e) => Number(e.dataset.id)))
  assert.deepEqual(after, [before[1], before[0]])
  await $('publish-title').fill('红与蓝')
  await page.waitForFunction(() => /草稿已保存/.test(document.querySelector('[data-testid=publish-draft]')?.textContent ?? ''))
  await shot(page, 'publish-03-pictures')
  await page.emulateMedia({ colorScheme: 'dark' })
  await shot(page, 'publish-03-pictures-dark')
  await page.emulateMedia({ colorScheme: 'light' })
  await page.reload()
  await $('publish-picture-page').waitFor()
  assert.equal(await $('publish-text').inputValue(), '周末的两张照片')
  assert.equal(await $('publish-title').inputValue(), '红与蓝')
  const restored = await page.locator('[data-testid=publish-picture]').evaluateAll((els) => els.map((e) => Number(e.dataset.id)))
  assert.deepEqual(restored, after, 'the pictures come back in the new order')
  assert.match(await $('publish-draft').innerText(), /已恢复/)
  // A topic from the seeded ones (after 不选话题, hot first).
  await $('publish-topic').click()
  await page.locator('[data-testid=publish-topic-sheet] [data-testid=publish-choice]').first().waitFor({ timeout: 10000 })
  await shot(page, 'publish-04-topics')
  await page.locator('[data-testid=publish-topic-sheet] [data-testid=publish-choice]').nth(1).click()
  await $('publish-topic-sheet').waitFor({ state: 'detached' })
  if (await $('publish-module').count()) {
    await $('publish-module').click()
    await page.locator('[data-testid=publish-module-sheet] [data-testid=publish-choice]').nth(1).click()
  }
})

test('the picture post is published and opens', async () => {
  const p = await submit()
  await page.waitForURL(/\/cdetail\/\d+$/, { timeout: 15000 })
  assert.equal(p.status, 200)
  assert.equal(p.answer.data.state, 'published')
  assert.equal(new URL(page.url()).pathname, `/cdetail/${p.answer.data.id}`)
  assert.equal(p.body.kind, 'picture')
  assert.equal(p.body.pictures.length, 2)
  assert.equal(p.body.title, '红与蓝')
  assert.ok(p.body.topicID > 0, 'filed under the chosen topic')
  picturePost = p.answer.data.id
  pictureTopic = p.body.topicID
  assert.ok(p.body.clientID, 'a client id for retries')
  // The same clientID again answers the same post: a retry writes nothing.
  const again = await call(server.base, 'POST', '/api/app/community/post', { token, body: p.body })
  assert.deepEqual(again, p.answer.data)
  // The draft is gone.
  await page.goto(server.base + '/community/publishpicture')
  await $('publish-picture-page').waitFor()
  assert.equal(await $('publish-text').inputValue(), '')
  assert.equal(await $('publish-picture').count(), 0)
})

test('ten pictures through the API are refused', async () => {
  const r = await fetch(server.base + '/api/app/community/post', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
    body: JSON.stringify({ kind: 'picture', pictures: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] }),
  })
  const env = await r.json()
  assert.equal(r.status, 422)
  assert.match(env.tip, /最多 9 张图片/)
})

test('a video post: upload a clip, write a caption, publish', async () => {
  await page.goto(server.base + '/community/publish/rule')
  await $('publish-kind-video').click()
  await page.waitForURL(/\/community\/publishvideo$/)
  await $('upload-input').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: files.clip })
  await $('publish-video-form').waitFor({ timeout: 30000 })
  await $('publish-text').fill('两秒的测试视频')
  await page.waitForFunction(() => /草稿已保存/.test(document.querySelector('[data-testid=publish-draft]')?.textContent ?? ''))
  await shot(page, 'publish-05-video')
  // Coming back restores the caption and the sent video (nothing is sent again).
  await page.reload()
  await $('publish-video-restored').waitFor()
  assert.equal(await $('publish-text').inputValue(), '两秒的测试视频')
  await shot(page, 'publish-05b-video-restored')
  const p = await submit()
  await page.waitForURL(/\/cdetail\/\d+$/, { timeout: 15000 })
  assert.equal(p.status, 200)
  assert.equal(p.body.kind, 'video')
  assert.ok(p.body.videoAssetID > 0)
  assert.equal(p.body.text, '两秒的测试视频')
})

test('an article with bold, a list and a picture', async () => {
  await page.goto(server.base + '/community/publisharticle')
  await $('publish-article-page').waitFor()
  await $('publish-title').fill('我的第一篇文章')
  const ed = $('publish-editor')
  await ed.click()
  await page.keyboard.type('开头一段，')
  await $('publish-tool-bold').click()
  await page.keyboard.type('这是粗体')
  await $('publish-tool-bold').click()
  await page.keyboard.press('Enter')
  await $('publish-tool-list').click()
  await page.keyboard.type('第一项')
  await page.keyboard.press('Enter')
  await page.keyboard.type('第二项')
  await page.keyboard.press('Enter')
  await page.keyboard.press('Enter')
  await $('publish-article-input').setInputFiles(jpeg('green'))
  await page.locator('[data-testid=publish-editor] img[data-asset]').waitFor({ timeout: 15000 })
  await page.waitForFunction(() => /草稿已保存/.test(document.querySelector('[data-testid=publish-draft]')?.textContent ?? ''))
  await shot(page, 'publish-06-article')
  // The draft survives a reload too, its picture shown again.
  await page.reload()
  await page.locator('[data-testid=publish-editor] img[data-asset]').waitFor({ timeout: 15000 })
  assert.equal(await $('publish-title').inputValue(), '我的第一篇文章')
  await page.waitForFunction(() => !document.querySelector('[data-testid=publish-submit]')?.disabled)
  const p = await submit()
  await page.waitForURL(/\/cdetail\/\d+$/, { timeout: 15000 })
  assert.equal(p.status, 200)
  assert.equal(p.body.kind, 'article')
  assert.match(p.body.html, /<(b|strong)>这是粗体<\/(b|strong)>/)
  assert.match(p.body.html, /<ul><li>第一项<\/li><li>第二项<\/li><\/ul>/)
  assert.match(p.body.html, /<img data-asset="\d+">/)
  assert.doesNotMatch(p.body.html, /src=/, 'no signed URL is sent')
})

test('the picture post is on its topic page (最新) and on the author\'s own page', async () => {
  await page.goto(server.base + `/community/topic/${pictureTopic}`)
  await $('topic-header').waitFor()
  await page.locator('[data-testid=topic-sort][data-sort=new]').click()
  await page.locator(`[data-testid=post-card][data-post-id="${picturePost}"]`).waitFor({ timeout: 10000 })
  await shot(page, 'publish-08-in-topic')
  // /myhome's 帖子 tab lists all three posts, newest first.
  await page.goto(server.base + '/myhome')
  await $('tab-posts').click()
  await $('user-posts').locator(`[data-testid=post-card][data-post-id="${picturePost}"]`).waitFor({ timeout: 10000 })
  assert.equal(await $('user-posts').locator('[data-testid=post-card]').count(), 3, 'the picture, video and article posts')
  await shot(page, 'publish-09-myhome')
})

test('a guest is asked to register', async () => {
  const guest = await launchPhone()
  try {
    await guest.page.goto(server.base + '/')
    await guest.page.waitForURL(/\/home/, { timeout: 15000 })
    await signedIn(guest.page) // home shows while the guest signs in
    await guest.page.goto(server.base + '/community/publish/rule')
    await guest.page.locator('[data-testid=publish-guest]').waitFor()
    assert.equal(await guest.page.locator('[data-testid=publish-kind-picture]').count(), 0)
    await shot(guest.page, 'publish-07-guest')
  } finally {
    await guest.browser.close()
  }
})

test('no server or script errors', () => {
  assert.deepEqual(failed, [])
  assert.deepEqual(phone.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
})
