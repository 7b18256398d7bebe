// Uploading a video from the web app as an iPhone in Chromium
// (/community/publishvideo): a wrong type is refused before sending, a
// renamed executable is refused by the server with its tip, a slow upload
// shows its progress and can be cancelled (nothing is stored), retried with
// the same file, then transcodes and plays on the page; the list of the
// user's uploads follows it.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

let server, phone, page, cdp, work, clip
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer()
  work = mkdtempSync(join(tmpdir(), 'prima-upload-'))
  // About 2.5 MB: 6 s of noise at a high bitrate, so a throttled upload
  // takes long enough to watch and cancel.
  const out = join(work, 'clip.mp4')
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'nullsrc=s=640x360:d=6,geq=random(1)*255:128:128', '-f', 'lavfi', '-i', 'sine=d=6',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-b:v', '3M', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out])
  clip = readFileSync(out)
  phone = await launchPhone()
  page = phone.page
  cdp = await phone.context.newCDPSession(page)
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
  if (work) rmSync(work, { recursive: true, force: true })
})

// mine: the signed-in guest's uploads, through the API with the page's token.
const mine = () =>
  page.evaluate(async () => {
    const raw = localStorage.getItem('prima_token')
    const token = raw && raw.startsWith('"') ? JSON.parse(raw) : raw
    const r = await fetch('/api/app/mine/uploads', { headers: { Authorization: `Bearer ${token}` } })
    return (await r.json()).data
  })

let posts = 0
test('the page opens with the picker and an empty list', async () => {
  page.on('request', (r) => { if (r.method() === 'POST' && r.url().includes('/api/app/vid/uploadStatic')) posts++ })
  // Mine's 发布 entry leads to the publishing rules (a guest is asked to
  // register there); the upload page itself takes guests too.
  await page.goto(server.base + '/community/publishvideo')
  await $('upload-pick').waitFor()
  await page.locator('[data-testid=publish-video-page] [data-testid=state-empty]').waitFor()
  await shot(page, 'upload-01-empty')
})

test('a wrong type is refused before sending', async () => {
  await $('upload-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
  await $('upload-error').waitFor()
  assert.match(await $('upload-error').innerText(), /不支持的文件类型/)
  assert.equal(posts, 0, 'nothing sent')
})

test("a renamed executable is refused by the server, with the server's tip and no retry", async () => {
  const elf = Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01\x00', 'latin1'), Buffer.alloc(4000)])
  await $('upload-input').setInputFiles({ name: 'movie.mp4', mimeType: 'video/mp4', buffer: elf })
  await $('upload-error').waitFor()
  assert.match(await $('upload-error').innerText(), /不支持的文件类型，请上传图片/)
  assert.equal(posts, 1)
  assert.equal(await $('upload-retry').count(), 0, 'no retry for a refused file')
  await $('upload-another').waitFor()
  assert.equal((await mine()).total, 0, 'nothing stored')
})

test('a too-large answer shows its tip', async () => {
  // The server's 413 itself is tested in Go (internal/media): a 500 MB
  // body is too big to send here, so its answer is replayed.
  await page.route('**/api/app/vid/uploadStatic', (r) =>
    r.request().method() === 'POST'
      ? r.fulfill({ status: 413, contentType: 'application/json', body: JSON.stringify({ code: 413, tip: '文件太大（图片不超过 10MB，视频不超过 500MB）', msg: 'over' }) })
      : r.continue())
  await $('upload-input').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip })
  await page.waitForFunction(() => /文件太大/.test(document.querySelector('[data-testid=upload-error]')?.textContent ?? ''))
  assert.equal(await $('upload-retry').count(), 0)
  await page.unroute('**/api/app/vid/uploadStatic')
})

test('a slow upload shows progress and can be cancelled; nothing is stored', async () => {
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 200 * 1024 })
  await $('upload-input').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip })
  await $('upload-progress').waitFor()
  await page.waitForFunction(() => {
    const v = Number(document.querySelector('[data-testid=upload-progress]')?.getAttribute('aria-valuenow'))
    return v > 0 && v < 100
  }, null, { timeout: 20000 })
  await shot(page, 'upload-02-progress')
  const p1 = Number(await $('upload-progress').getAttribute('aria-valuenow'))
  await page.waitForFunction((p) => Number(document.querySelector('[data-testid=upload-progress]')?.getAttribute('aria-valuenow')) > p, p1, { timeout: 20000 })
  await $('upload-cancel').click()
  await $('upload-cancelled').waitFor()
  await $('upload-retry').waitFor()
  await page.waitForTimeout(500)
  assert.equal((await mine()).total, 0, 'a cancelled upload stores nothing')
})

test('retry sends the same file, then it transcodes and plays here', async () => {
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
  await $('upload-retry').click()
  await page.locator('[data-testid=upload-result]').waitFor({ timeout: 30000 })
  const first = await $('upload-result').getAttribute('data-state')
  assert.ok(['processing', 'ready'].includes(first), `state ${first}`)
  if (first === 'processing') await shot(page, 'upload-03-processing')
  await page.locator('[data-testid=upload-result][data-state=ready]').waitFor({ timeout: 120000 })
  await page.locator('[data-testid=upload-result] [data-testid=player][data-status=ready]').waitFor({ timeout: 20000 })
  await page.evaluate(() => { const v = document.querySelector('[data-testid=upload-result] video'); v.muted = true; return v.play() })
  await page.waitForFunction(() => (document.querySelector('[data-testid=upload-result] video')?.currentTime ?? 0) > 0.5, null, { timeout: 20000 })
  await shot(page, 'upload-04-ready')
  const list = await mine()
  assert.equal(list.total, 1)
  assert.equal(list.list[0].state, 'ready')
  await page.locator(`[data-testid=upload-item][data-id="${list.list[0].id}"][data-state=ready]`).waitFor()
})

test('no script errors', () => {
  assert.deepEqual(phone.errors.filter((e) => !/status of 4\d\d/.test(e)), [])
})
