// The first real journey, as a new visitor on an iPhone 13: splash, home
// with the seeded catalogue, infinite scroll, tabs, the dark flag, register,
// logout, login, and a wrong password that shows the server's tip.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { devices } from 'playwright-core'

let server, phone, page
const account = 'e2e_' + Date.now().toString(36).slice(-6)
const password = 'journey123'
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  server = await startServer()
  phone = await launchPhone()
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

test('a new visitor lands on splash and reaches home, keeping the query', async () => {
  await page.goto(server.base + '/?ch=e2e')
  await page.waitForURL(/\/home\?ch=e2e$/, { timeout: 15000 })
  // Home shows while the guest signs in; the token follows.
  await signedIn(page)
  assert.equal(await page.evaluate(() => document.cookie.includes('prima_token')), true, 'guest token saved in the cookie too')
})

test('home shows the seeded modules and videos', async () => {
  await $('video-card').first().waitFor()
  assert.ok(await $('home-module-tab').count() > 3, 'module tabs from the API')
  assert.ok(await $('home-section').count() >= 2, 'sections')
  const title = await $('video-card').first().innerText()
  assert.ok(title.trim().length > 0, 'a video card has a title')
  await shot(page, '01-home')
})

// The server draws the first screen's largest picture (home's banner, the
// first clip's poster, the video's cover) over the app before any script
// runs (internal/app/firstscreen.go); the app takes over from it
// (web/src/app/first-screen.ts). Scripts held back show what the server
// drew; with them, the layer goes only once the app shows the same picture
// in the same place, and nothing moves.
test('the first screen the server draws is where the app draws the same picture', async () => {
  const id = await $('video-card').first().evaluate((e) => e.dataset.videoId)
  // On "/" (splash) the layer is home's: the app passes through "/" on its
  // way to /home, where it takes over.
  for (const path of ['/home', '/', '/shortvideo', `/detail/${id}`]) {
    const still = await phone.context.newPage()
    await still.route(/\/assets\/.*\.js$/, (r) => r.abort())
    await still.goto(server.base + path)
    const drawn = await still.locator('#prima-first img').evaluate(async (img) => {
      await img.decode()
      const r = img.getBoundingClientRect()
      return { src: img.getAttribute('src'), rect: [r.x, r.y, r.width, r.height] }
    })
    await still.close()

    const live = await phone.context.newPage()
    await live.addInitScript(() => {
      window.__shift = 0
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) if (!e.hadRecentInput) window.__shift += e.value
      }).observe({ type: 'layout-shift', buffered: true })
      // When the layer goes, is the app showing its picture, and where?
      new MutationObserver((records, obs) => {
        for (const r of records) {
          for (const n of r.removedNodes) {
            if (n.id !== 'prima-first') continue
            const src = n.querySelector('img').getAttribute('src')
            const el = [...document.querySelectorAll('#root img, #root video')].find((e) => e.getAttribute(e.tagName === 'VIDEO' ? 'poster' : 'src') === src)
            const b = el?.getBoundingClientRect()
            window.__takenOver = b && [b.x, b.y, b.width, b.height]
            obs.disconnect()
          }
        }
      }).observe(document, { childList: true, subtree: true })
    })
    await live.goto(server.base + path)
    await live.locator('#prima-first').waitFor({ state: 'detached', timeout: 8000 })
    await live.waitForTimeout(1000)
    const app = await live.evaluate((src) => {
      const el = [...document.querySelectorAll('#root img, #root video')].find((e) => e.getAttribute(e.tagName === 'VIDEO' ? 'poster' : 'src') === src)
      const r = el?.getBoundingClientRect()
      return { rect: r && [r.x, r.y, r.width, r.height], takenOver: window.__takenOver, shift: window.__shift }
    }, drawn.src)
    assert.ok(app.takenOver, `${path}: the layer went once the app showed ${drawn.src}`)
    assert.deepEqual(app.takenOver.map(Math.round), drawn.rect.map(Math.round), `${path}: the same place and size`)
    assert.deepEqual(app.rect?.map(Math.round), drawn.rect.map(Math.round), `${path}: and it stays there`)
    // Detail's bar title moving sideways as the video's title replaces the
    // route's is the app's own (0.0007, on main too); nothing else moves
    // (home's <main> did, by 8 px, when PullRefresh's wrapper arrived).
    // Chromium 156.0.8078 (Debian, December 2026) counts 0.0046 on
    // /shortvideo where the Chromium before it counted under 0.001, with the
    // same app (the commit before this session's fails the same way); a
    // shift a person sees starts far higher (CLS "good" is under 0.1).
    assert.ok(app.shift < 0.01, `${path}: layout shift ${app.shift}`)
    await live.close()
  }
  // A visitor without a session gets the same first screen: the app draws
  // the page while the guest signs in. On splash's "/" it is home's.
  const stranger = await phone.browser.newContext({ ...devices['iPhone 13'], locale: 'zh-CN' })
  const blank = await stranger.newPage()
  await blank.route(/\/assets\/.*\.js$/, (r) => r.abort())
  for (const [path, drawn] of [['/home', '/home'], ['/', '/home'], ['/shortvideo', '/shortvideo'], [`/detail/${id}`, `/detail/${id}`]]) {
    await blank.goto(server.base + path)
    assert.equal(await blank.locator('#prima-first').getAttribute('data-path'), drawn, `${path}: the first screen without a session`)
  }
  await stranger.close()
})

// A theme chosen in the app is the page's before any script runs: the
// server reads it from the app's cookie (internal/app/webapp.go themeOf),
// so a dark choice on a light phone never paints the first screen light.
test('the theme chosen in the app is the page\'s before scripts run', async () => {
  await page.goto(server.base + '/mine/setting')
  await $('dark-toggle').click()
  await page.waitForFunction(() => document.documentElement.dataset.prefersColorScheme === 'dark')
  const still = await phone.context.newPage()
  await still.route(/\/assets\/.*\.js$/, (r) => r.abort())
  for (const path of ['/home', '/mine']) {
    await still.goto(server.base + path)
    assert.equal(await still.evaluate(() => document.documentElement.dataset.prefersColorScheme), 'dark', `${path}: dark before scripts`)
  }
  await still.goto(server.base + '/home')
  assert.equal(await still.locator('#prima-first').evaluate((e) => getComputedStyle(e).backgroundColor), 'rgb(28, 28, 30)', 'the first screen is dark')
  await page.goto(server.base + '/mine/setting')
  await $('dark-toggle').click()
  await page.waitForFunction(() => document.documentElement.dataset.prefersColorScheme === 'light')
  await still.goto(server.base + '/home')
  assert.equal(await still.evaluate(() => document.documentElement.dataset.prefersColorScheme), 'light', 'and light again')
  await still.close()
  await page.goto(server.base + '/home')
  await $('video-card').first().waitFor()
})

// Pull to refresh (components/PullRefresh): a finger pulling down from the
// top moves the content and the head says what a release does; released
// past the threshold home asks for its data again and the content goes
// back with no transform left; the same pull on a scrolled page scrolls.
test('pulling home down from the top refreshes it', async () => {
  await page.goto(server.base + '/home')
  await $('video-card').first().waitFor()
  const cdp = await page.context().newCDPSession(page)
  const touch = (type, y) => cdp.send('Input.dispatchTouchEvent', { type, touchPoints: type === 'touchEnd' ? [] : [{ x: 190, y }] })
  const pull = async (to) => {
    await touch('touchStart', 300)
    for (let y = 310; y <= to; y += 20) {
      await touch('touchMove', y)
      await page.waitForTimeout(16)
    }
  }
  const ptr = page.locator('[data-testid=home-page] [data-testid=pull-refresh]')
  const asked = []
  page.on('request', (r) => { if (/modules\/list|moduleSection/.test(r.url())) asked.push(r.url()) })

  await pull(380) // 80 px of finger: not far enough
  assert.equal(await ptr.getAttribute('data-status'), 'pulling')
  assert.match(await ptr.locator('[role=status]').innerText(), /下拉刷新/)
  await touch('touchEnd')
  await page.waitForFunction(() => document.querySelector('[data-testid=pull-refresh]').dataset.status === 'idle')
  assert.equal(asked.length, 0, 'a short pull refreshes nothing')

  await pull(600)
  assert.equal(await ptr.getAttribute('data-status'), 'canRelease')
  assert.match(await ptr.locator('[role=status]').innerText(), /释放立即刷新/)
  const moved = await ptr.evaluate((e) => e.lastElementChild.getBoundingClientRect().top)
  await touch('touchEnd')
  await page.waitForFunction(() => ['refreshing', 'complete'].includes(document.querySelector('[data-testid=pull-refresh]').dataset.status))
  await page.waitForFunction(() => document.querySelector('[data-testid=pull-refresh]').dataset.status === 'idle', null, { timeout: 8000 })
  assert.ok(asked.length > 0, 'home asked for its data again')
  await page.waitForTimeout(400) // the snap back
  const rest = await ptr.evaluate((e) => [e.lastElementChild.getBoundingClientRect().top, e.lastElementChild.style.transform])
  assert.ok(moved > rest[0] + 40, `the content followed the finger (${moved} -> ${rest[0]})`)
  assert.equal(rest[1], '', 'no transform left at rest')
  await $('video-card').first().waitFor()

  // Offline, the pull says nothing was updated and asks home for nothing,
  // so home keeps its cards (its refresh would start its lists again).
  await page.context().setOffline(true)
  await pull(600)
  await touch('touchEnd')
  await page.waitForFunction(() => document.querySelector('[data-testid=pull-refresh]').dataset.status === 'offline', null, { timeout: 8000 })
  assert.match(await ptr.locator('[role=status]').innerText(), /网络不可用/)
  await page.waitForFunction(() => document.querySelector('[data-testid=pull-refresh]').dataset.status === 'idle', null, { timeout: 8000 })
  assert.ok(await $('video-card').first().isVisible(), 'home kept its cards: nothing was reset')
  await page.context().setOffline(false)

  // Scrolled down, the same gesture is the page's scroll, not a pull.
  await page.evaluate(() => window.scrollTo(0, 400))
  await page.waitForTimeout(100)
  asked.length = 0
  await pull(600)
  assert.equal(await ptr.getAttribute('data-status'), 'idle')
  await touch('touchEnd')
  await page.waitForTimeout(300)
  assert.equal(asked.length, 0, 'no refresh from a scrolled page')
  await page.evaluate(() => window.scrollTo(0, 0))
  await cdp.detach()
})

test('scrolling loads more', async () => {
  const before = await $('home-section').count()
  for (let i = 0; i < 12 && (await $('home-section').count()) === before; i++) {
    await page.mouse.wheel(0, 4000)
    await page.waitForTimeout(400)
  }
  assert.ok(await $('home-section').count() > before, `more sections after scrolling (had ${before})`)
  await shot(page, '02-home-scrolled')
})

test('a sub-module tab shows its video grid, sorted by the chosen chip', async () => {
  await page.evaluate(() => window.scrollTo(0, 0))
  const tab = $('home-module-tab').nth(2)
  await tab.click()
  await page.waitForFunction(() => document.querySelectorAll('[data-testid=home-module-tab]')[2]?.getAttribute('aria-selected') === 'true')
  await $('home-video-feed').waitFor()
  await $('video-card').first().waitFor()
  await page.locator('[data-testid=sort-chip][data-sort="1"]').click()
  await page.waitForTimeout(600)
  await shot(page, '03-home-subtab-hot')
})

test('tab bar switches pages', async () => {
  await $('tab-community').click()
  await page.waitForURL(/\/community/)
  await page.locator('[data-testid=tab-community][aria-current=page]').waitFor()
  await shot(page, '04-community')
  await $('tab-mine').click()
  await page.waitForURL(/\/mine$/)
  await $('mine-guest-card').waitFor()
  await shot(page, '05-mine-guest')
})

test('the dark flag switches the whole app', async () => {
  await $('dark-toggle').click()
  await page.waitForFunction(() => document.documentElement.getAttribute('data-prefers-color-scheme') === 'dark')
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
  assert.notEqual(bg, 'rgb(255, 255, 255)', 'body is not white in dark mode')
  await shot(page, '06-mine-dark')
  await $('tab-home').click()
  await $('video-card').first().waitFor()
  await shot(page, '07-home-dark')
  await $('tab-mine').click()
  await $('dark-toggle').click()
  await page.waitForFunction(() => document.documentElement.getAttribute('data-prefers-color-scheme') !== 'dark')
})

test('a guest registers and keeps their uid', async () => {
  const guestUid = (await $('mine-uid').innerText()).replace(/\D/g, '')
  await $('mine-register').click()
  await page.waitForURL(/\/mine\/register/)
  // The form checks the rules before the server does.
  await $('register-account').fill('1bad')
  await $('register-password').fill('short')
  await $('register-confirm').fill('short')
  await $('register-submit').click()
  await $('register-account-error').waitFor()
  await shot(page, '08-register-errors')
  await $('register-account').fill(account)
  await $('register-password').fill(password)
  await $('register-confirm').fill(password)
  await $('register-submit').click()
  await page.waitForURL(/\/mine$/)
  await $('mine-profile-card').waitFor()
  assert.match(await $('mine-account').innerText(), new RegExp(account))
  const uid = (await $('mine-profile-card').innerText()).match(/\d{1,}/g) ?? []
  assert.ok(uid.includes(guestUid), `registered user keeps the guest uid ${guestUid}`)
  await shot(page, '09-mine-registered')
})

async function logout() {
  await $('mine-entry-setting').click()
  await page.waitForURL(/\/mine\/setting/)
  await shot(page, '10-setting')
  await $('logout').click()
  // The confirmation comes first (its code loads on the tap, so wait for it).
  const confirm = page.locator('.adm-dialog-button, .adm-modal-button').filter({ hasText: /退出|确定|确认/ })
  await confirm.last().click()
  await page.waitForURL(/\/mine$/)
  await $('mine-guest-card').waitFor()
}

test('logout returns to a guest', async () => {
  await logout()
  await shot(page, '11-mine-after-logout')
})

test('the account logs in again', async () => {
  await $('mine-login').click()
  await page.waitForURL(/\/mine\/login/)
  await $('login-account').fill(account)
  await $('login-password').fill(password)
  await shot(page, '12-login')
  await $('login-submit').click()
  await page.waitForURL(/\/mine$/)
  await $('mine-profile-card').waitFor()
  assert.match(await $('mine-account').innerText(), new RegExp(account))
})

test('a wrong password shows the server tip', async () => {
  await logout()
  await $('mine-login').click()
  await $('login-account').fill(account)
  await $('login-password').fill('wrong1234')
  await $('login-submit').click()
  await $('login-error').waitFor()
  assert.match(await $('login-error').innerText(), /账号或密码错误/)
  await shot(page, '13-login-wrong-password')
})

// Every screen of the table is built now (search was the last); the shared
// page still answers a path outside the table.
test('a path outside the table names the not-found screen and links back', async () => {
  await page.goto(server.base + '/no/such/page')
  await $('coming-soon').waitFor()
  assert.equal(await $('coming-soon').getAttribute('data-route'), 'notfound')
  // A missing page draws a not-found picture, not the clock of a screen
  // still to come, and promises nothing.
  assert.equal(await page.locator('[data-testid=coming-soon] main svg').first().getAttribute('data-icon'), 'notfound')
  assert.doesNotMatch(await $('coming-soon').innerText(), /即将|上线/)
  await shot(page, '14-coming-soon')
})

// /source: discover's "more" of a home module opens every video of that
// module, most played first; the filters go to moduleVideo and into the
// query string, and what the grid shows is what the API answers.
test('/source lists a module with the filters moduleVideo takes', async () => {
  const api = async (q) => {
    const r = await fetch(`${server.base}/api/app/vid/moduleVideo?${q}&pageNumber=1&pageSize=20`)
    return (await r.json()).data.list.map((v) => v.id)
  }
  const mods = await (await fetch(server.base + '/api/app/modules/list?moduleType=0')).json()
  const m = mods.data[0]
  await page.goto(server.base + '/discover')
  await page.locator(`[data-testid=discover-section][data-module-id="${m.moduleID}"] [data-testid=discover-more]`).click()
  await page.waitForURL(new RegExp(`/source\\?moduleID=${m.moduleID}&sortType=1$`))
  await page.locator('[data-testid=source-list] [data-testid=video-card]').first().waitFor()
  assert.equal((await page.locator('h1').innerText()).trim(), m.moduleName, 'titled with the module name')
  assert.equal(await page.locator('[data-testid=source-sort][data-value="1"]').getAttribute('aria-checked'), 'true')
  const cards = () => page.locator('[data-testid=source-list] [data-testid=video-card]').evaluateAll((as) => as.map((a) => Number(a.dataset.videoId)))
  assert.deepEqual(await cards(), await api(`moduleID=${m.moduleID}&sortType=1`), 'most played first, as the API orders them')
  await shot(page, '15-source')

  // Newest first, then the short band: the grid follows each answer.
  await page.locator('[data-testid=source-sort][data-value="0"]').click()
  await page.waitForURL(new RegExp(`/source\\?moduleID=${m.moduleID}$`))
  const newest = await api(`moduleID=${m.moduleID}&sortType=0`)
  await page.waitForFunction((first) => Number(document.querySelector('[data-testid=source-list] [data-testid=video-card]')?.dataset.videoId) === first, newest[0])
  assert.deepEqual(await cards(), newest)
  await page.locator('[data-testid=source-duration][data-value="1"]').click()
  await page.waitForURL(/playTimeType=1/)
  const short = await api(`moduleID=${m.moduleID}&sortType=0&playTimeType=1`)
  if (short.length === 0) await page.locator('[data-testid=source-list] [data-testid=state-empty]').waitFor()
  else await page.waitForFunction((n) => document.querySelectorAll('[data-testid=source-list] [data-testid=video-card]').length === n, short.length)
  assert.deepEqual(short.length ? await cards() : [], short)
  await page.locator('[data-testid=source-recent]').click()
  await page.waitForURL(/newsType=1/)
  // The address changes before the transition that redraws the chip commits.
  await page.locator('[data-testid=source-recent][aria-checked=true]').waitFor({ timeout: 5000 })
  // Filters replaced the history entry: back returns to discover.
  await page.goBack()
  await page.waitForURL(/\/discover$/)

  // A sub-module by id, named after it; nonsense and unknown ids.
  const sub = m.subModules[0]
  await page.goto(server.base + `/source?id=${sub.id}`)
  await page.locator('[data-testid=source-list] [data-testid=video-card]').first().waitFor()
  // The title comes from the module list, which may answer after the first
  // cards: until then the page's own title stands.
  await page.waitForFunction((name) => document.querySelector('h1')?.textContent?.trim() === name, sub.moduleName)
  assert.deepEqual(await cards(), await api(`subModuleID=${sub.id}&sortType=0`))
  await page.goto(server.base + '/source?id=-3')
  await page.locator('[data-testid=source-page] [data-testid=state-empty]').waitFor()
  await page.goto(server.base + '/source?id=987654321')
  await page.locator('[data-testid=source-page] [data-testid=state-error]').waitFor()
  assert.match(await page.locator('[data-testid=state-error]').innerText(), /栏目不存在/)
})

test('no page errors on the way', () => {
  // The pull test goes offline on purpose: the browser logs those loads.
  assert.deepEqual(phone.errors.filter((e) => !/401|Unauthorized|status of 4\d\d|ERR_INTERNET_DISCONNECTED/.test(e)), [])
})

// Home at the narrowest and widest phone widths, light and dark.
test('home fits 320 and 430 px, light and dark', async () => {
  for (const width of [320, 430]) {
    for (const colorScheme of ['light', 'dark']) {
      const p = await launchPhone({ width, colorScheme })
      try {
        await p.page.goto(server.base + '/')
        await p.page.waitForURL(/\/home/, { timeout: 15000 })
        await p.page.locator('[data-testid=video-card]').first().waitFor()
        await p.page.waitForTimeout(500)
        // The covers above the fold come in from the prefetch cache, often
        // before the page's effects run: they must still end up shown.
        await p.page.waitForFunction(() => {
          const boxes = [...document.querySelectorAll('[data-testid=video-card] [data-phase]')].slice(0, 4)
          return boxes.length === 4 && boxes.every((b) => b.getAttribute('data-phase') === 'loaded')
        }, null, { timeout: 10000 })
        const overflow = await p.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
        assert.ok(overflow <= 0, `no sideways scroll at ${width}px (overflow ${overflow})`)
        await shot(p.page, `15-home-${width}-${colorScheme}`)
      } finally {
        await p.browser.close()
      }
    }
  }
})
