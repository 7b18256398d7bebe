// Chat between two phones: two browsers, two registered users.
// Alice opens /message/{bob} directly and writes; Bob, sitting on Mine,
// sees the Mine tab's dot and the message entry's count appear with no
// reload, opens the message centre and the chat, reads and replies; Alice
// sees the reply and her read receipt live, and sends a picture; Bob's
// badges clear once he has read everything. Then Bob blocks Alice, whose
// next message fails with the server's reason. Screenshots of both pages,
// light (Alice) and dark (Bob).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

let server, alice, bob
const tag = Date.now().toString(36).slice(-5)
const password = 'chat12345'

before(async () => {
  server = await startServer()
  alice = await launchPhone()
  bob = await launchPhone({ colorScheme: 'dark' })
})

after(async () => {
  await alice?.browser.close()
  await bob?.browser.close()
  await server?.stop()
})

// register signs a fresh phone up through the app and returns its uid.
async function register(phone, account) {
  const p = phone.page
  await p.goto(server.base + '/')
  await p.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p) // home shows while the guest signs in
  await p.goto(server.base + '/mine/register')
  await p.locator('[data-testid=register-account]').fill(account)
  await p.locator('[data-testid=register-password]').fill(password)
  await p.locator('[data-testid=register-confirm]').fill(password)
  await p.locator('[data-testid=register-submit]').click()
  await p.waitForURL(/\/mine$/)
  await p.locator('[data-testid=mine-account]').waitFor()
  const uid = Number((await p.locator('[data-testid=mine-uid]').innerText()).match(/\d+/)[0])
  assert.ok(uid > 0, `${account} has a uid`)
  return uid
}

function picture() {
  const dir = mkdtempSync(join(tmpdir(), 'prima-chat-'))
  try {
    const out = join(dir, 'pic.png')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=orange:s=320x240', '-frames:v', '1', out])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('two users chat in real time; the badge appears and clears', async () => {
  const bobSockets = []
  bob.page.on('websocket', (ws) => bobSockets.push(ws))
  const aliceUid = await register(alice, 'alice_' + tag)
  const bobUid = await register(bob, 'bob_' + tag)
  const a = alice.page
  const b = bob.page
  const $a = (id) => a.locator(`[data-testid=${id}]`)
  const $b = (id) => b.locator(`[data-testid=${id}]`)

  // Bob waits on Mine: no dot, no count.
  await $b('mine-page').waitFor()
  assert.equal(await $b('tab-mine-badge').count(), 0)
  assert.equal(await $b('mine-message-badge').count(), 0)
  // Bob's socket is up (the badge must come from its event: polling
  // without a socket waits 30 s, longer than the waits below).
  for (let i = 0; i < 50 && !bobSockets.some((ws) => ws.url().endsWith('/api/app/ws')); i++) await b.waitForTimeout(100)
  assert.ok(bobSockets.some((ws) => ws.url().endsWith('/api/app/ws')), 'Bob has a realtime socket')

  // Alice opens the chat directly and writes. An empty message cannot go.
  await a.goto(`${server.base}/message/${bobUid}`)
  await $a('chat-input').waitFor()
  assert.equal(await $a('chat-send').isDisabled(), true, 'send is off while the input is empty')
  await $a('chat-input').fill('你好 Bob，这是第一条私信')
  await $a('chat-send').click()
  await a.locator('[data-testid=chat-msg][data-from-me=true]').first().waitFor()
  assert.equal(await $a('chat-pending').count(), 0, 'the pending bubble became the server message')
  assert.equal(await $a('chat-receipt').getAttribute('data-read'), 'false')

  // Bob: the dot and the count appear without a reload.
  await $b('tab-mine-badge').waitFor({ timeout: 10000 })
  await $b('mine-message-badge').waitFor({ timeout: 10000 })
  assert.equal(await $b('mine-message-badge').innerText(), '1')
  await $b('mine-message-badge').scrollIntoViewIfNeeded()
  await shot(b, 'chat-mine-badge-dark')

  // Bob opens the message centre, then the conversation.
  await $b('mine-entry-messagecenter').click()
  await b.waitForURL(/\/mine\/message/)
  const row = b.locator(`[data-testid=conv-row][data-uid="${aliceUid}"]`)
  await row.waitFor()
  assert.equal(await row.getAttribute('data-unread'), '1')
  assert.match(await row.locator('[data-testid=conv-preview]').innerText(), /第一条私信/)
  assert.equal(await $b('msg-tab-count-chats').innerText(), '1')
  await shot(b, 'chat-center-dark')
  await row.click()
  await b.waitForURL(new RegExp(`/message/${aliceUid}$`))
  await b.locator('[data-testid=chat-text]', { hasText: '第一条私信' }).waitFor()

  // Alice's receipt turns to read, live.
  await a.locator('[data-testid=chat-receipt][data-read=true]').waitFor({ timeout: 10000 })

  // Bob replies; Alice sees it without a reload.
  await $b('chat-input').fill('收到！')
  await $b('chat-send').click()
  await a.locator('[data-testid=chat-msg][data-from-me=false] [data-testid=chat-text]', { hasText: '收到！' }).waitFor({ timeout: 10000 })

  // Alice sends a picture: uploaded, then sent by its asset id.
  await $a('chat-file').setInputFiles({ name: 'pic.png', mimeType: 'image/png', buffer: picture() })
  await a.locator('[data-testid=chat-msg][data-from-me=true] [data-testid=chat-picture]').waitFor({ timeout: 15000 })
  await b.locator('[data-testid=chat-msg][data-from-me=false] [data-testid=chat-picture]').waitFor({ timeout: 10000 })
  await shot(a, 'chat-alice-light')
  await shot(b, 'chat-bob-dark')

  // Bob has read everything on the open chat: back on Mine, no badge.
  await b.goto(server.base + '/mine')
  await $b('mine-page').waitFor()
  await b.waitForFunction(() => !document.querySelector('[data-testid=tab-mine-badge]'), null, { timeout: 10000 })
  assert.equal(await $b('mine-message-badge').count(), 0)

  // Alice's message centre shows the conversation, read.
  await a.goto(server.base + '/mine/message')
  const arow = a.locator(`[data-testid=conv-row][data-uid="${bobUid}"]`)
  await arow.waitFor()
  assert.equal(await arow.getAttribute('data-unread'), '0')
  await shot(a, 'chat-center-light')
  await $a('msg-tab-system').click()
  await $a('state-empty').waitFor()

  // Alice has the chat open when Bob blocks her through its menu.
  await a.goto(`${server.base}/message/${bobUid}`)
  await $a('chat-input').waitFor()
  await b.goto(`${server.base}/message/${aliceUid}`)
  await $b('chat-menu').click()
  await b.getByText('屏蔽此人').click()
  await b.locator('.adm-dialog-button', { hasText: '屏蔽此人' }).click()
  await $b('chat-blocked').waitFor()
  await shot(b, 'chat-blocked-dark')

  // Alice's next message fails with the server's reason, and the page
  // then shows why she cannot write.
  await $a('chat-input').fill('还在吗？')
  await $a('chat-send').click()
  await $a('chat-retry').waitFor({ timeout: 10000 })
  assert.match(await $a('chat-retry').innerText(), /对方已将你屏蔽/)
  await $a('chat-blocked-by').waitFor()
  assert.equal(await $a('chat-input').count(), 0)
  await shot(a, 'chat-blocked-by-light')

  // The narrowest phone we support: nothing overflows sideways.
  await a.setViewportSize({ width: 320, height: 640 })
  await a.waitForTimeout(200)
  assert.ok(await a.evaluate(() => document.documentElement.scrollWidth <= 320), 'no sideways scroll at 320 px')
  await shot(a, 'chat-320-light')

  const errs = (p) => p.errors.filter((e) => !/401|403|Unauthorized|Forbidden/.test(e))
  assert.deepEqual(errs(alice), [])
  assert.deepEqual(errs(bob), [])
})
