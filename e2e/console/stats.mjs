// The console's statistics section (issue 21) in Chromium (run by
// console-sections.test.mjs, which owns the server, the browser and the
// operators). The section tests share one server, so the test first rolls
// today up and reads the figures (the baseline), then makes a day's
// activity through the phone API — a new guest who registers, a sandbox
// top-up, two plays, a search — and, as finance on a laptop, rolls today up
// with the page's button and reads the overview's cards: each is the
// baseline plus what the test made, the charts are drawn (canvas, no CSP
// refusal), the daily CSV (the server's) and one chart's (the browser's)
// download with the same figures. The content page lists the video
// played; at phone size the revenue page fits the screen.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { shot } from '../harness.mjs'

const stamp = Date.now().toString(36).slice(-6)
const today = new Date(Date.now() + 8 * 3600e3).toISOString().slice(0, 10) // Asia/Shanghai

// The component library's run-time <style> elements (see moderation.mjs)
// are refused harmlessly by the CSP; anything else refused is a problem,
// and nothing at all may be refused to the chart chunk (ECharts).
const real = (problems) =>
  problems.filter((p) => /\/admin\/assets\/Chart-[\w-]+\.js/.test(p) || !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))

export default function register(test, ctx) {
  const data = (r, what) => {
    assert.equal(r.status, 200, `${what}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }
  const figures = async () => {
    data(await ctx.api('finance', 'POST', '/api/admin/stats/rollup', { day: today }), 'rollup')
    const d = data(await ctx.api('finance', 'GET', `/api/admin/stats/daily?from=${today}&to=${today}`), 'daily').days[0]
    assert.equal(d.rolled, true)
    return d
  }

  test('stats: the overview shows the day the test made, charts drawn, CSV; content and phone pages', async () => {
    const base = await figures()

    // The day's activity, as a phone user.
    const devID = ('e2estats' + stamp).padEnd(16, '0').slice(0, 16) + Date.now()
    const guest = data(await ctx.api(null, 'POST', '/api/app/mine/login', { devID, sysType: 'h5' }), 'guest').token
    const user = data(await ctx.api(guest, 'POST', '/api/app/mine/register', { account: 'stat' + stamp, passWord: 'secret12' }), 'register').token
    const pkg = data(await ctx.api('finance', 'GET', '/api/admin/currencys'), 'packages').find((p) => p.active !== false)
    assert.ok(pkg, 'a coin package')
    const order = data(await ctx.api(user, 'POST', '/api/app/mine/topay', { productType: 'coins', productID: pkg.id, payType: 'sandbox', idempotencyKey: 'e2e-stats-' + stamp }), 'topay')
    const pay = new URL(order.payUrl, ctx.server.base)
    const paid = await fetch(ctx.server.base + pay.pathname, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'pay', t: pay.searchParams.get('k') }) })
    assert.equal(paid.status, 303, 'sandbox pay')
    const video = data(await ctx.api('content', 'GET', '/api/admin/videos?published=1&access=free&pageSize=1'), 'videos').list[0]
    assert.ok(video, 'a published free video')
    for (let i = 0; i < 2; i++) data(await ctx.api(user, 'POST', '/api/app/vid/play', { id: video.id }), 'play')
    const found = data(await ctx.api(user, 'GET', '/api/app/search/overview?q=' + encodeURIComponent(video.title)), 'search')
    const searched = found.sections.length > 0 ? 1 : 0 // a search that finds nothing is not counted

    const want = {
      activeAvg: base.activeUsers + 1, newGuests: base.newGuests + 1, registrations: base.registrations + 1,
      payers: base.payers + 1, revenue: base.revenue.total + pkg.price, plays: base.plays + 2, searches: base.searches + searched,
      withdrawCents: base.withdrawals.cents,
    }
    const { context, page, problems } = await ctx.open('finance')
    try {
      await page.goto(`${ctx.server.base}/admin/stats?from=${today}&to=${today}`)
      await ctx.$(page, 'stats-rollup').waitFor({ timeout: 15000 })
      await ctx.$(page, 'stats-rollup').click()
      await page.getByText('已汇总 ' + today).waitFor()
      for (const [k, v] of Object.entries(want)) {
        await page.waitForFunction(([id, v]) => document.querySelector(`[data-testid="${id}"]`)?.getAttribute('data-value') === String(v), [`stats-kpi-${k}`, v], { timeout: 10000 }).catch(async () => {
          const got = await ctx.$(page, `stats-kpi-${k}`).getAttribute('data-value')
          assert.fail(`${k}: the card says ${got}, want ${v} (baseline ${JSON.stringify(base)})`)
        })
      }
      await ctx.$(page, 'stats-chart-users').locator('canvas').waitFor()
      await ctx.$(page, 'stats-chart-revenue').locator('canvas').waitFor()
      await shot(page, 'console-stats-overview')
      const download = page.waitForEvent('download')
      await ctx.$(page, 'stats-csv-daily').click()
      const file = await download
      assert.match(file.suggestedFilename(), new RegExp(`^stats-daily-${today}-${today}\\.csv$`))
      const daily = readFileSync(await file.path(), 'utf8')
      assert.ok(daily.includes(`\n${today},true,${want.activeAvg},${want.newGuests},${want.registrations},${want.payers},`), daily)
      // One chart's CSV, made in the browser from what it draws.
      const chartFile = page.waitForEvent('download')
      await ctx.$(page, 'stats-chart-csv-users').click()
      const users = await chartFile
      assert.equal(users.suggestedFilename(), `stats-users-${today}-${today}.csv`)
      assert.ok(readFileSync(await users.path(), 'utf8').includes(`\r\n${today},${want.activeAvg},${want.newGuests},${want.registrations}\r\n`))

      await page.goto(`${ctx.server.base}/admin/stats/content?from=${today}&to=${today}`)
      await ctx.$(page, 'stats-top-video').getByText(`${video.title} (#${video.id})`).waitFor({ timeout: 10000 })
      await ctx.$(page, 'stats-chart-top-video').locator('canvas').waitFor()
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }

    const phone = await ctx.open('finance', { phone: true })
    try {
      await phone.page.goto(`${ctx.server.base}/admin/stats/revenue?from=${today}&to=${today}`)
      await ctx.$(phone.page, 'stats-chart-providers').locator('canvas').waitFor({ timeout: 15000 })
      await phone.page.waitForFunction((v) => document.querySelector('[data-testid="stats-kpi-revenue"]')?.getAttribute('data-value') === String(v), want.revenue)
      await shot(phone.page, 'console-stats-phone')
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`)
      assert.deepEqual(real(phone.problems), [])
    } finally {
      await phone.context.close()
    }
  })
}
