// The console's catalogue pages in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). On a laptop the
// content operator creates an announcement and a home banner, sees a click
// counted, renames the app in the remote configuration (a step-up call: the
// session was stepped up when it was opened, so no code prompt shows), and
// the phone app's API shows each change; the owner finds the audit rows. On
// a phone the ads and the remote configuration pages fit the screen. The
// content operator also makes a gallery of uploaded pictures and an ad whose
// picture is uploaded, and the phone app's API shows them.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { shot } from '../harness.mjs'

// png renders a one-colour picture with ffmpeg.
function png(colour, size) {
  const dir = mkdtempSync(join(tmpdir(), 'prima-catalog-'))
  try {
    const out = join(dir, 'p.png')
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colour}:s=${size}`, '-frames:v', '1', out])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

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

  test('catalog: a gallery of uploaded pictures and an ad with an uploaded picture (laptop, content operator)', async () => {
    const { context, page, problems } = await ctx.open('content')
    const $ = (id) => ctx.$(page, id)
    try {
      // 新建图集: two pictures uploaded at once, the second moved first.
      await page.goto(ctx.server.base + '/admin/content/galleries')
      await $('galleries-table').waitFor()
      await $('gallery-create').click()
      await $('gallery-title').fill('e2e 图集')
      // The first category of an images module (the seed's), chosen by
      // keyboard once the list is there; its label "module / category" shows.
      await $('gallery-sub').click()
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').first().waitFor()
      await page.keyboard.press('Enter')
      await $('gallery-sub').getByText(/ \/ /).waitFor()
      await $('gallery-files').setInputFiles([
        { name: 'red.png', mimeType: 'image/png', buffer: png('red', '320x240') },
        { name: 'blue.png', mimeType: 'image/png', buffer: png('blue', '240x320') },
      ])
      const items = page.locator('[data-testid="gallery-picture"]')
      await page.locator('[data-testid="gallery-picture"] img').nth(1).waitFor()
      assert.equal(await items.count(), 2)
      await items.nth(1).getByRole('button', { name: '上移' }).click()
      await items.first().getByText('blue.png').waitFor()
      await shot(page, 'console-catalog-gallery-new')
      const created = posted(page, '/api/admin/galleries')
      await $('gallery-submit').click()
      const res = await created
      assert.equal(res.status(), 200)
      const sent = JSON.parse(res.request().postData()).images
      const gallery = (await res.json()).data
      assert.equal(sent.length, 2)
      assert.equal(gallery.imageCount, 2)
      // Published, the phone app shows both pictures in that order.
      const pub = posted(page, '/api/admin/galleries/publish')
      await $(`gallery-publish-${gallery.id}`).click()
      assert.equal((await pub).status(), 200)
      const shown = await app(`/api/app/gallery/info?id=${gallery.id}`)
      assert.deepEqual(shown.images.map((i) => i.assetId), sent)
      // 编辑: the pictures come back from galleries/info; the second moved
      // first again is galleries/images with the new order.
      await $(`gallery-edit-${gallery.id}`).click()
      await page.locator('[data-testid="gallery-picture"] img').nth(1).waitFor()
      await items.nth(1).getByRole('button', { name: '上移' }).click()
      const reordered = posted(page, '/api/admin/galleries/images')
      await $('gallery-submit').click()
      assert.equal((await reordered).status(), 200)
      assert.deepEqual((await app(`/api/app/gallery/info?id=${gallery.id}`)).images.map((i) => i.assetId), [sent[1], sent[0]])

      // An ad whose picture is uploaded: published at a public address.
      await page.goto(ctx.server.base + '/admin/content/ads')
      await $('ads-table').waitFor()
      await $('ad-create').click()
      await $('ad-title').fill('e2e 上传横幅')
      await $('ad-upload-file').setInputFiles({ name: 'banner.png', mimeType: 'image/png', buffer: png('orange', '750x300') })
      await $('ad-preview').waitFor()
      const adSaved = posted(page, '/api/admin/ads')
      await $('ad-submit').click()
      const ad = (await (await adSaved).json()).data
      assert.match(ad.image, /^\/media\/covers\//)
      assert.ok((await app('/api/app/vid/source')).ads.some((a) => a.id === ad.id && a.image === ad.image))
      const pic = await fetch(ctx.server.base + ad.image)
      assert.equal(pic.status, 200)
      assert.match(pic.headers.get('content-type') ?? '', /^image\//)

      assert.ok((await audit('gallery.create')).some((r) => r.target === `gallery:${gallery.id}`))
      assert.ok((await audit('gallery.publish')).some((r) => r.target === `gallery:${gallery.id}`))
      assert.equal((await audit('gallery.images')).filter((r) => r.target === `gallery:${gallery.id}`).length, 1)
      assert.ok((await audit('ad.create')).some((r) => r.target === `ad:${ad.id}` && r.after?.image === ad.image))
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
