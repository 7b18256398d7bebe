// Accessibility, measured: axe-core audits every built page (home, mine as
// a guest and signed in, login, register, setting, the not-found page, the
// community tab under the tab bar, the search results with the filter sheet
// open, the gate's hand-off page, ...) in light and dark
// mode, in Chromium as an iPhone.
// A page passes with no critical or serious violation and exactly one main
// landmark (axe rates a missing main only "moderate", but a screen reader
// user needs it to skip the chrome). Every violation found is printed, at
// any impact, with its rule, impact, targets and summary, so a failure says
// what to fix.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { artifacts, startServer, launchPhone, launchDesktop, signedIn } from './harness.mjs'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const failing = new Set(['critical', 'serious'])
// Rules that fail a page whatever impact axe gives them.
const required = new Set(['landmark-one-main', 'landmark-no-duplicate-main'])

let server, gated
before(async () => {
  server = await startServer()
  gated = await startServer({ PRIMA_GATE: 'ios' })
})
after(async () => {
  await server?.stop()
  await gated?.stop()
})

// audit runs axe on the page as it is and returns the violations, each as
// one printable line per target.
async function audit(page) {
  // Colours mid-animation (the announcement bar fading its next line in, a
  // tint transition) give a contrast that is neither start nor end, and the
  // bar rotates on a timer, so waiting cannot avoid it: audit the resting
  // state, with animations and transitions jumping to their end.
  await page.addStyleTag({ content: '*, *::before, *::after { animation-duration: 0s !important; animation-delay: 0s !important; transition-duration: 0s !important; transition-delay: 0s !important; }' })
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity), null, { timeout: 5000 }).catch(() => {})
  await page.addScriptTag({ path: axePath })
  const violations = await page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] })
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: (n.failureSummary ?? '').replace(/\s+/g, ' ').trim() })),
    }))
  })
  return violations
}

function describe(page, vs) {
  return vs.flatMap((v) => v.nodes.map((n) => `  ${page}: [${v.impact}] ${v.id} (${v.help}) at ${n.target}: ${n.summary}`))
}

const account = (scheme) => `ax${scheme[0]}_` + Date.now().toString(36).slice(-6)

for (const colorScheme of ['light', 'dark']) {
  test(`every built page has no serious accessibility violation, ${colorScheme} mode`, async () => {
    const found = []
    const failures = []
    const check = async (name, page, { scheme = colorScheme } = {}) => {
      // The app follows the system's scheme until the user picks one (the
      // dark module's page is dark whatever the scheme).
      if (name !== 'gate hand-off') {
        const attr = await page.evaluate(() => document.documentElement.getAttribute('data-prefers-color-scheme'))
        assert.equal(attr === 'dark' ? 'dark' : 'light', scheme, `${name} is in ${scheme} mode`)
      }
      const vs = await audit(page)
      found.push(...describe(name, vs))
      failures.push(...describe(name, vs.filter((v) => failing.has(v.impact) || required.has(v.id))))
    }
    const $ = (page, id) => page.locator(`[data-testid=${id}]`)

    const phone = await launchPhone({ colorScheme, bypassCSP: true })
    const page = phone.page
    try {
      await page.goto(server.base + '/')
      await page.waitForURL(/\/home/, { timeout: 15000 })
      await signedIn(page) // home shows while the guest signs in
      await $(page, 'video-card').first().waitFor()
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
      await check('home', page)

      await page.goto(server.base + '/mine')
      await $(page, 'mine-guest-card').waitFor()
      await check('mine (guest)', page)

      // A video's detail (liked, so the list below has a card), and a mine list.
      await page.goto(server.base + '/home')
      const card = $(page, 'video-card').first()
      const vid = await card.getAttribute('data-video-id')
      await page.goto(server.base + `/detail/${vid}`)
      await $(page, 'detail-related').locator('[data-testid=video-card]').first().waitFor()
      await $(page, 'detail-like').click()
      await page.locator('[data-testid=detail-like][aria-pressed=true]').waitFor()
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
      await check('detail', page)

      await page.goto(server.base + '/mine/userlike')
      await page.locator(`[data-testid=mine-videos] [data-testid=video-card][data-video-id="${vid}"]`).waitFor()
      await check('mine liked videos', page)

      // Galleries: the categories grid, a VIP gallery (free pictures, then
      // the locked ones behind the paywall), and its full-screen viewer.
      await page.goto(server.base + '/galleryCategory')
      await $(page, 'gallery-card').first().waitFor()
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
      await check('galleryCategory', page)
      const vipCard = page.locator('[data-testid=gallery-card][data-vip="1"]').first()
      const gid = await vipCard.getAttribute('data-gallery-id')
      await page.goto(server.base + `/gallery/${gid}`)
      await $(page, 'paywall').waitFor()
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
      await check('gallery (paywall)', page)
      await $(page, 'gallery-picture').first().click()
      await $(page, 'gallery-viewer').waitFor()
      await check('gallery viewer', page)

      await page.goto(server.base + '/mine/login')
      await $(page, 'login-form').waitFor()
      await check('login', page)

      await page.goto(server.base + '/mine/register')
      await $(page, 'register-form').waitFor()
      await check('register', page)

      // Every screen of the table is built now; the shared page still
      // answers a path outside the table.
      await page.goto(server.base + '/no/such/page')
      await $(page, 'coming-soon').waitFor()
      await check('coming soon', page)

      // The community tab: the tab layout and the page must not both claim
      // the main landmark.
      await page.goto(server.base + '/community')
      await $(page, 'post-card').first().waitFor()
      await check('community', page)

      // Search: the page with its hot words, the results of a word.
      await page.goto(server.base + '/search')
      await $(page, 'search-hot').waitFor()
      await check('search', page)
      await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('猫'))
      await $(page, 'search-overview').waitFor()
      await check('searchresult', page)
      // A kind's results under a filter (its summary line and 清除筛选), then
      // the filter sheet open over them.
      await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('江南') + '&kind=video&vipLevel=1')
      await $(page, 'search-filter-summary').waitFor()
      await page.locator('[data-testid=search-kind] [data-testid=search-result]').first().waitFor()
      await check('searchresult (filtered)', page)
      await $(page, 'search-filter-open').click()
      await $(page, 'search-filter-group').first().waitFor()
      await check('searchresult (filter sheet)', page)

      await page.goto(server.base + '/shortvideo')
      await $(page, 'short-slide').first().waitFor()
      await $(page, 'short-like').first().waitFor()
      await check('shortvideo', page)

      await page.goto(server.base + '/dark')
      await $(page, 'video-card').first().waitFor()
      await page.waitForFunction(() => [...document.images].every((i) => i.complete), null, { timeout: 5000 }).catch(() => {})
      await check('dark', page, { scheme: 'dark' })

      await page.goto(server.base + '/discover')
      await $(page, 'discover-section').first().waitFor()
      await check('discover', page)

      await page.goto(server.base + '/source?moduleID=1&sortType=1')
      await $(page, 'video-card').first().waitFor()
      await check('source', page)

      await page.goto(server.base + '/community/publishvideo')
      await $(page, 'upload-pick').waitFor()
      await check('publishvideo', page)

      await page.goto(server.base + '/mine/register')
      await $(page, 'register-account').fill(account(colorScheme))
      await $(page, 'register-password').fill('access123')
      await $(page, 'register-confirm').fill('access123')
      await $(page, 'register-submit').click()
      await page.waitForURL(/\/mine$/)
      await $(page, 'mine-profile-card').waitFor()
      await check('mine (signed in)', page)

      // Publishing (features/community/publish), as the registered user.
      await page.goto(server.base + '/community/publish/rule')
      await $(page, 'publish-kind-picture').waitFor()
      await check('publishrule', page)
      await page.goto(server.base + '/community/publishpicture')
      await $(page, 'publish-add-picture').waitFor()
      await check('publishpicture', page)
      await page.goto(server.base + '/community/publisharticle')
      await $(page, 'publish-editor').waitFor()
      await check('publisharticle', page)

      await page.goto(server.base + '/mine/setting')
      await $(page, 'logout').waitFor()
      await check('setting', page)
    } finally {
      await phone.browser.close()
    }

    const desk = await launchDesktop({ colorScheme, bypassCSP: true })
    try {
      await desk.page.goto(gated.base + '/home')
      await desk.page.locator('[data-testid=gate-qr]').waitFor()
      await check('gate hand-off', desk.page)
    } finally {
      await desk.browser.close()
    }

    const report = `axe violations, ${colorScheme} mode (${found.length}):\n${found.join('\n') || '  none'}\n`
    console.log(report)
    mkdirSync(artifacts, { recursive: true })
    writeFileSync(join(artifacts, `a11y-${colorScheme}.txt`), report)
    assert.ok(failures.length === 0, `${failures.length} critical, serious or required-rule violations in ${colorScheme} mode:\n${failures.join('\n')}`)
  })
}
