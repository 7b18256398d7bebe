// Screenshots of the pages a reviewer looks at, as an iPhone 13 in headless
// Chromium, light and dark: the boot frame, home while the guest signs in,
// home, mine, login, setting with its sign-out confirmation, and home's
// offline state and its recovery when the connection returns.
//
//   make build && node web/scripts/screens.mjs [dir]   (default /tmp/prima-shots)
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { startServer, launchPhone, signedIn } from '../../e2e/harness.mjs'

const dir = process.argv[2] ?? '/tmp/prima-shots'
mkdirSync(dir, { recursive: true })
const server = await startServer()
const $ = (page, id) => page.locator(`[data-testid=${id}]`)
const snap = async (page, name) => {
  await page.waitForTimeout(500)
  await page.screenshot({ path: join(dir, name + '.png') })
  console.log('saved', join(dir, name + '.png'))
}

try {
  for (const scheme of ['light', 'dark']) {
    const { browser, context, page } = await launchPhone({ colorScheme: scheme })
    try {
      // Hold the app's script, then the guest sign-in: the boot mark, then
      // home drawn before the sign-in answers, each long enough to photograph.
      let releaseScript
      const scriptHeld = new Promise((r) => (releaseScript = r))
      await page.route(/\/assets\/index-.*\.js$/, async (route) => {
        await scriptHeld
        await route.continue()
      })
      let releaseLogin
      const loginHeld = new Promise((r) => (releaseLogin = r))
      await page.route('**/api/app/mine/login', async (route) => {
        await loginHeld
        await route.continue()
      })
      await page.goto(server.base + '/', { waitUntil: 'commit' })
      await page.waitForSelector('.prima-boot')
      await snap(page, `00-boot-${scheme}`)
      releaseScript()
      // Home is drawn while the guest signs in (splash shows only when the
      // sign-in fails).
      await page.waitForURL(/\/home/)
      await $(page, 'video-card').first().waitFor()
      await snap(page, `01-home-signing-in-${scheme}`)
      releaseLogin()
      await signedIn(page)
      await snap(page, `02-home-${scheme}`)

      // Offline: another module tab cannot load; the page says so and
      // recovers by itself when the connection is back.
      await context.setOffline(true)
      await $(page, 'home-module-tab').nth(3).click()
      await page.locator('[data-testid=state-offline]').waitFor({ timeout: 10000 })
      await snap(page, `03-offline-${scheme}`)
      await context.setOffline(false)
      await $(page, 'video-card').first().waitFor({ timeout: 10000 })
      console.log('recovered after the online event')

      await $(page, 'tab-mine').click()
      await $(page, 'mine-guest-card').waitFor()
      await snap(page, `04-mine-guest-${scheme}`)
      await $(page, 'mine-login').click()
      await $(page, 'login-form').waitFor()
      await $(page, 'login-account').fill('nobody1')
      await $(page, 'login-password').fill('wrong1234')
      await $(page, 'login-submit').click()
      await $(page, 'login-error').waitFor()
      await snap(page, `05-login-wrong-${scheme}`)

      // Register, then settings and the sign-out confirmation.
      await page.goto(server.base + '/mine/register')
      const account = 'shot' + scheme + Date.now().toString(36).slice(-4)
      await $(page, 'register-account').fill(account)
      await $(page, 'register-password').fill('shots1234')
      await $(page, 'register-confirm').fill('shots1234')
      await $(page, 'register-submit').click()
      await $(page, 'mine-profile-card').waitFor()
      await snap(page, `06-mine-member-${scheme}`)
      await $(page, 'mine-entry-setting').click()
      await $(page, 'logout').click()
      await page.locator('.adm-dialog-button').first().waitFor()
      await snap(page, `07-setting-logout-confirm-${scheme}`)
    } finally {
      await browser.close()
    }
  }
} finally {
  await server.stop()
}
