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

// targets checks each control answers taps over at least 44 x 44 CSS px
// around its centre: the points 21 px left, right, above and below the
// centre must all land on it (its ::before hit area counts).
async function targets(page, name, selectors) {
  for (const sel of selectors) {
    const r = await page.evaluate((sel) => {
      const el = document.querySelector(sel)
      if (!el) return { missing: true }
      el.scrollIntoView({ block: 'center', inline: 'center' })
      const b = el.getBoundingClientRect()
      const cx = b.left + b.width / 2
      const cy = b.top + b.height / 2
      const hits = [[-21, 0], [21, 0], [0, -21], [0, 21]].map(([dx, dy]) => {
        const at = document.elementFromPoint(cx + dx, cy + dy)
        return !!at && (at === el || el.contains(at))
      })
      return { w: Math.round(b.width), h: Math.round(b.height), ok: hits.every(Boolean), hits }
    }, sel)
    const ok = !r.missing && r.ok
    if (!ok) failed++
    console.log(`   target ${ok ? 'ok  ' : 'FAIL'} ${sel} (${r.missing ? 'missing' : `${r.w}x${r.h} visible, 44x44 hit: ${r.hits}`}) on ${name}`)
  }
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
      if (scheme === 'light') {
        await targets(page, 'home', ['[data-testid=section-more]', '[data-testid=section-change]', '[data-testid=home-search]', '[data-testid=home-module-tab]', '[data-testid=announce-bar]'])
        await page.evaluate(() => window.scrollTo(0, 0))
      }
      await visit(page, '/mine', '[data-testid=mine-guest-card]')
      await check(page, `mine-guest-${scheme}`)
      if (scheme === 'light') await targets(page, 'mine', ['[data-testid=mine-login]', '[data-testid=mine-register]', '[data-testid=mine-setting]', '[data-testid=dark-toggle]'])
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
      if (scheme === 'light') await targets(page, 'setting', ['[data-testid=lang-zh-CN]', '[data-testid=lang-en]', '[data-testid=nav-back]'])
    } finally {
      await browser.close()
    }
  }
} finally {
  await server.stop()
}
console.log(failed ? `${failed} page(s) with serious or critical violations or without one main landmark` : 'every page passes')
process.exit(failed ? 1 : 0)
