// Runs axe-core on every built page of the app, light and dark, on the real
// server in headless Chromium as an iPhone 13, and fails (exit 1) on any
// critical or serious violation. With SHOTS=dir it also saves a screenshot
// of each page there.
//
//   make build && node web/scripts/a11y.mjs
import { createRequire } from 'node:module'
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startServer, launchPhone } from '../../e2e/harness.mjs'

const require = createRequire(import.meta.url)
// Evaluated over the DevTools protocol: the app's CSP forbids a script tag.
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')
const shots = process.env.SHOTS
if (shots) mkdirSync(shots, { recursive: true })

const server = await startServer()
let failed = 0

async function check(page, name) {
  await page.waitForTimeout(400)
  await page.evaluate(axeSource)
  const r = await page.evaluate(() => window.axe.run(document, { resultTypes: ['violations'] }))
  const bad = r.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')
  const landmark = await page.evaluate(() => document.querySelectorAll('main, [role=main]').length)
  console.log(`${name.padEnd(24)} ${bad.length ? 'FAIL' : 'ok  '} serious/critical: ${bad.length}  other: ${r.violations.length - bad.length}  main landmarks: ${landmark}`)
  for (const v of r.violations) {
    console.log(`   [${v.impact}] ${v.id}: ${v.help} (${v.nodes.length})`)
    for (const n of v.nodes.slice(0, 4)) console.log(`       ${n.target.join(' ')}  ${(n.any[0]?.message ?? '').slice(0, 140)}`)
  }
  if (bad.length || landmark !== 1) failed++
  if (shots) await page.screenshot({ path: join(shots, name + '.png') })
}

async function visit(page, path, ready) {
  await page.goto(server.base + path)
  await page.locator(ready).first().waitFor({ timeout: 15000 })
}

try {
  for (const scheme of ['light', 'dark']) {
    const { browser, page } = await launchPhone({ colorScheme: scheme })
    try {
      await page.goto(server.base + '/')
      await page.waitForURL(/\/home/, { timeout: 15000 })
      await page.locator('[data-testid=video-card]').first().waitFor()
      await check(page, `home-${scheme}`)
      await visit(page, '/mine', '[data-testid=mine-guest-card]')
      await check(page, `mine-guest-${scheme}`)
      await visit(page, '/mine/login', '[data-testid=login-form]')
      await check(page, `login-${scheme}`)
      await visit(page, '/mine/register', '[data-testid=register-submit]')
      await check(page, `register-${scheme}`)
      await visit(page, '/mine/vipcenter', '[data-testid=coming-soon]')
      await check(page, `coming-soon-${scheme}`)
      await visit(page, '/community', '[data-testid=coming-soon]')
      await check(page, `tab-soon-${scheme}`)
      // Sign up the guest through the API, then look again as a member.
      const account = 'a11y' + scheme + Date.now().toString(36).slice(-5)
      await page.evaluate(async (account) => {
        const token = JSON.parse(localStorage.getItem('prima_token'))
        const r = await fetch('/api/app/mine/register', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + token },
          body: JSON.stringify({ account, passWord: 'access123' }),
        })
        const { data } = await r.json()
        localStorage.setItem('prima_token', JSON.stringify(data.token))
      }, account)
      await visit(page, '/mine', '[data-testid=mine-profile-card]')
      await check(page, `mine-member-${scheme}`)
      await visit(page, '/mine/setting', '[data-testid=logout]')
      await check(page, `setting-${scheme}`)
    } finally {
      await browser.close()
    }
  }
} finally {
  await server.stop()
}
console.log(failed ? `${failed} page(s) with serious or critical violations or without one main landmark` : 'every page passes')
process.exit(failed ? 1 : 0)
