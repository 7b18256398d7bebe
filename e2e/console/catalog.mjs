// The console's catalogue pages in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). On a laptop the
// content operator creates an announcement and a home banner, sees a click
// counted, renames the app in the remote configuration (a step-up call: the
// session was stepped up when it was opened, so no code prompt shows), and
// the phone app's API shows each change; the owner finds the audit rows. On
// a phone the ads and the remote configuration pages fit the screen.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

export default function register(test, ctx) {
  const app = async (path) => {
    const r = await fetch(ctx.server.base + path)
    return (await r.json()).data
  }
  const audit = async (action) => {
    const r = await ctx.api('owner', 'GET', `/api/admin/audit?action=${encodeURIComponent(action)}`)
    assert.equal(r.status, 200)
    return r.env.data.list
  }
  // The component library writes two <style> elements of its own at run time
  // (a table's scrollbar probe, a drawer's scroll lock), refused harmlessly
  // by the CSP (console.test.mjs says the same); anything else counts.
  const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))
  const posted = (page, path) => page.waitForResponse((r) => new URL(r.url()).pathname === path && r.request().method() === 'POST')

  test('catalog: announcement, ad with clicks, remote configuration (laptop, content operator)', async () => {
    const { context, page, problems } = await ctx.open('content')
    const $ = (id) => ctx.$(page, id)
    try {
      // An announcement: the phone app shows it at once.
      await page.goto(ctx.server.base + '/admin/content/announcements')
      await $('announcements-table').waitFor()
      await $('announcement-create').click()
      await $('announcement-title').fill('e2e 维护公告')
      await $('announcement-content').fill('今晚 23:00 维护\n约 30 分钟')
      await $('announcement-link').fill('javascript:alert(1)')
      await $('announcement-submit').click()
      await page.getByText('链接无效').first().waitFor() // refused in the browser, nothing sent
      await $('announcement-link').fill('/mine/vipcenter')
      const saved = posted(page, '/api/admin/announcements')
      await $('announcement-submit').click()
      const ann = (await (await saved).json()).data
      assert.equal((await saved).status(), 200)
      await $('announcements-table').getByText('e2e 维护公告').waitFor()
      assert.ok((await app('/api/app/modules/announce')).some((a) => a.id === ann.id && a.content === '今晚 23:00 维护\n约 30 分钟'))

      // A home banner: in vid/source's ads, its click counted today.
      await page.goto(ctx.server.base + '/admin/content/ads')
      await $('ads-table').waitFor()
      await $('ad-create').click()
      await $('ad-title').fill('e2e 横幅')
      const picture = (await app('/api/app/vid/source')).ads[0].image // a seeded banner's /media/ads/... picture
      await $('ad-image').fill(picture)
      await $('ad-link').fill('prima://vipcenter')
      const adSaved = posted(page, '/api/admin/ads')
      await $('ad-submit').click()
      const ad = (await (await adSaved).json()).data
      assert.equal(ad.position, 'home_banner')
      assert.ok((await app('/api/app/vid/source')).ads.some((a) => a.id === ad.id && a.image === picture))
      const click = await fetch(ctx.server.base + '/api/app/ads/click', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ id: ad.id }) })
      assert.equal(click.status, 200)
      await page.reload()
      await $(`ad-clicks-${ad.id}`).getByText('1', { exact: true }).waitFor()
      await shot(page, 'console-catalog-ads')

      // The remote configuration: rename the app (APPNAME, step-up).
      await page.goto(ctx.server.base + '/admin/content/source')
      await $('source-editor-APPNAME').waitFor()
      await $('source-title-0').fill('精品 E2E')
      const src = posted(page, '/api/admin/source')
      await $('source-save').click()
      assert.equal((await src).status(), 200)
      await page.locator('.ant-message-success').waitFor()
      assert.equal((await app('/api/app/vid/source')).APPNAME[0].title, '精品 E2E')
      // A link key refuses a javascript: link before sending anything.
      await page.goto(ctx.server.base + '/admin/content/help')
      await $('source-editor-FAQ').waitFor()
      await page.getByRole('tab', { name: /GROUP/ }).click()
      await $('source-editor-GROUP').locator('[data-testid="source-add"]').click()
      const last = $('source-editor-GROUP').locator('[data-testid^="source-entry-"]').last()
      await last.locator('[data-testid^="source-title-"]').fill('e2e 群')
      await last.locator('[data-testid^="source-url-"]').fill('javascript:alert(1)')
      await $('source-editor-GROUP').locator('[data-testid="source-save"]').click()
      await $('source-editor-GROUP').locator('[data-testid="source-problem"]').waitFor()
      await shot(page, 'console-catalog-source')

      // The audit rows, each naming its target.
      assert.ok((await audit('announcement.create')).some((r) => r.target === `announcement:${ann.id}`))
      assert.ok((await audit('ad.create')).some((r) => r.target === `ad:${ad.id}` && r.after?.link === 'prima://vipcenter'))
      const set = await audit('source.set')
      assert.ok(set.some((r) => r.target === 'source:APPNAME' && JSON.stringify(r.after).includes('精品 E2E')))
      assert.ok(!set.some((r) => r.target === 'source:GROUP'), 'the refused GROUP list was not sent')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })

  test('catalog: the ads and lines pages on a phone', async () => {
    const { context, page, problems } = await ctx.open('content', { phone: true })
    try {
      await page.goto(ctx.server.base + '/admin/content/ads')
      await ctx.$(page, 'ads-table').waitFor()
      await ctx.$(page, 'ad-create').click()
      await ctx.$(page, 'ad-submit').waitFor()
      const fits = await page.evaluate(() => document.querySelector('.ant-drawer-content-wrapper')?.getBoundingClientRect().width ?? 0)
      assert.ok(fits >= 380, `the drawer takes the screen (${fits}px)`)
      await shot(page, 'console-catalog-phone-ad')
      // Two API lines (a step-up call: ctx.api steps the session up), one reported down by a phone.
      const set = await ctx.api('content', 'POST', '/api/admin/lines', { api: ['https://api1.example.com', 'https://api2.example.com'] })
      assert.equal(set.status, 200)
      const report = await fetch(ctx.server.base + '/api/app/report/error', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ kind: 'line', appname: 'Prima', appv: '1.1.3', dev: 'ios', domain: { 'https://api2.example.com': 'timeout' } }),
      })
      assert.equal(report.status, 200)
      await page.goto(ctx.server.base + '/admin/content/lines')
      await ctx.$(page, 'lines-health').getByText('https://api1.example.com').waitFor()
      await ctx.$(page, 'line-failing').getByText(/1 次故障上报/).waitFor()
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 1, `no sideways scroll (${overflow}px)`)
      await shot(page, 'console-catalog-phone-lines')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })
}
