// The platform gate (docs/design.md, departure 1): an operator setting, not a
// hard-coded redirect. A gated device sees a QR hand-off page, or goes to
// the operator's URL when one is set; a device the gate lets in gets the app.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, launchDesktop, landingServer, shot } from './harness.mjs'

test('gate=ios: a desktop sees the QR hand-off page, an iPhone gets the app', async () => {
  const server = await startServer({ PRIMA_GATE: 'ios' })
  const desk = await launchDesktop()
  const phone = await launchPhone()
  try {
    await desk.page.goto(server.base + '/home')
    await desk.page.locator('[data-testid=gate-handoff]').waitFor()
    await desk.page.locator('[data-testid=gate-qr]').waitFor()
    assert.ok(!(await desk.page.evaluate(() => localStorage.getItem('prima_token'))), 'a gated device is not signed in')
    await shot(desk.page, '20-gate-qr-desktop')

    await phone.page.goto(server.base + '/')
    await phone.page.waitForURL(/\/home/, { timeout: 15000 })
    await phone.page.locator('[data-testid=video-card]').first().waitFor()
  } finally {
    await desk.browser.close()
    await phone.browser.close()
    await server.stop()
  }
})

test('gate=mobile with a redirect URL sends a desktop there', async () => {
  const landing = await landingServer()
  const server = await startServer({ PRIMA_GATE: 'mobile', PRIMA_GATE_REDIRECT_URL: landing.url })
  const desk = await launchDesktop()
  try {
    await desk.page.goto(server.base + '/')
    await desk.page.waitForURL(landing.url, { timeout: 15000 })
    assert.equal(await desk.page.title(), 'landing')
  } finally {
    await desk.browser.close()
    await server.stop()
    await landing.stop()
  }
})

test('gate=off (the default): a desktop gets the app in a phone-width column', async () => {
  const server = await startServer()
  const desk = await launchDesktop()
  try {
    await desk.page.goto(server.base + '/')
    await desk.page.waitForURL(/\/home/, { timeout: 15000 })
    await desk.page.locator('[data-testid=video-card]').first().waitFor()
    const width = await desk.page.evaluate(() => document.getElementById('root').getBoundingClientRect().width)
    assert.ok(width <= 480, `app column is ${width}px wide`)
    await desk.page.waitForTimeout(500)
    await shot(desk.page, '21-desktop-column')
  } finally {
    await desk.browser.close()
    await server.stop()
  }
})
