// Realtime in a real browser: two tabs of one phone. The first shows Mine
// as a guest; the second registers. The first tab's WebSocket hears
// profile.changed and its Mine page shows the account with no reload.
// (This also proves the browser side of the handshake: the token in the
// subprotocol list, the echoed prima.v1, the same-origin check and CSP.)
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'

let server, phone
const account = 'rt_' + Date.now().toString(36).slice(-6)
const password = 'realtime123'

before(async () => {
  server = await startServer()
  phone = await launchPhone()
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

test('a profile change in another tab refreshes Mine without a reload', async () => {
  const a = phone.page
  const sockets = []
  a.on('websocket', (ws) => sockets.push(ws))
  await a.goto(server.base + '/')
  await a.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(a) // home shows while the guest signs in
  await a.goto(server.base + '/mine')
  await a.locator('[data-testid=mine-guest-card]').waitFor()
  for (let i = 0; i < 50 && !sockets.some((ws) => ws.url().endsWith('/api/app/ws')); i++) await a.waitForTimeout(100)
  assert.ok(sockets.some((ws) => ws.url().endsWith('/api/app/ws')), 'tab A opened the realtime socket')
  assert.ok(!sockets.some((ws) => ws.url().includes('token')), 'no token in the socket URL')

  const b = await phone.context.newPage()
  await b.goto(server.base + '/mine/register')
  await b.locator('[data-testid=register-account]').fill(account)
  await b.locator('[data-testid=register-password]').fill(password)
  await b.locator('[data-testid=register-confirm]').fill(password)
  await b.locator('[data-testid=register-submit]').click()
  await b.waitForURL(/\/mine$/)

  // Tab A was not touched: only the event can have refreshed it.
  await a.locator('[data-testid=mine-account]').waitFor({ timeout: 10000 })
  assert.match(await a.locator('[data-testid=mine-account]').innerText(), new RegExp(account))
  await shot(a, 'realtime-mine-refreshed')
  assert.deepEqual(phone.errors.filter((e) => !/401|Unauthorized/.test(e)), [])
})
