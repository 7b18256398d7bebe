// The console's content section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators): as the content
// operator on a laptop, modules made and ordered by drag and by button, a
// video made and edited (access and price, cover and file uploaded with
// progress), two videos published at once, and the audit row of each
// change; then the videos page at phone size.
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { shot } from '../harness.mjs'

// ffmpeg renders the test files: a picture and a 2-second clip.
function render(name, args) {
  const dir = mkdtempSync(join(tmpdir(), 'prima-content-'))
  try {
    const out = join(dir, name)
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, out])
    return readFileSync(out)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export default function register(test, ctx) {
  const { $ } = ctx
  const ok = async (role, method, path, body) => {
    const r = await ctx.api(role, method, path, body)
    assert.equal(r.status, 200, `${method} ${path}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }
  const audit = async (action) => (await ok('owner', 'GET', `/api/admin/audit?action=${encodeURIComponent(action)}`)).list
  const darkTops = async () => (await ok('content', 'GET', '/api/admin/modules')).filter((m) => m.moduleType === 2)
  // antd's table measures the scrollbar with an inline <style>, which the
  // console's CSP refuses (harmlessly; console.test.mjs allows the same).
  const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))
  const toast = (page, text) => page.locator('.ant-message-notice', { hasText: text }).first().waitFor({ timeout: 15000 })

  test('content: modules ordered by drag and by button, a video edited and uploaded, two published at once, each audited', async () => {
    const { context, page, problems } = await ctx.open('content')
    try {
      // Modules of type 2 (暗网): two made in the page.
      await page.goto(ctx.server.base + '/admin/content/modules')
      await $(page, 'module-types').locator('.ant-segmented-item', { hasText: '暗网' }).click()
      for (const name of ['E2E甲', 'E2E乙']) {
        await $(page, 'module-add').click()
        await $(page, 'module-name').fill(name)
        await $(page, 'module-save').click()
        await toast(page, '模块已保存')
        await page.locator('.module-name', { hasText: name }).waitFor()
      }
      let tops = await darkTops()
      const a = tops.find((m) => m.name === 'E2E甲')
      const b = tops.find((m) => m.name === 'E2E乙')
      assert.ok(tops.indexOf(a) < tops.indexOf(b))
      // Drag 乙 onto 甲's place (native HTML5 drag and drop).
      await $(page, `module-drag-${b.id}`).dragTo($(page, `module-${a.id}`))
      await toast(page, '顺序已保存')
      tops = await darkTops()
      assert.ok(tops.findIndex((m) => m.id === b.id) < tops.findIndex((m) => m.id === a.id), 'the drag put 乙 before 甲')

      // Two sub-modules of 甲, the second moved up by its button.
      await $(page, `module-addsub-${a.id}`).click()
      await $(page, 'module-name').fill('E2E子一')
      await $(page, 'module-save').click()
      await toast(page, '模块已保存')
      const sub2 = await ok('content', 'POST', '/api/admin/modules', { name: 'E2E子二', pid: a.id })
      await page.reload()
      await $(page, 'module-types').locator('.ant-segmented-item', { hasText: '暗网' }).click()
      await $(page, `module-up-${sub2.id}`).click()
      await toast(page, '顺序已保存')
      const subs = (await darkTops()).find((m) => m.id === a.id).subModules
      assert.deepEqual(subs.map((s) => s.name), ['E2E子二', 'E2E子一'])
      await shot(page, 'console-content-modules')

      // A video made in the drawer, then given a price, a cover and a file.
      await page.goto(ctx.server.base + '/admin/content/videos')
      await $(page, 'video-new').click()
      await $(page, 'video-title').fill('E2E视频一')
      await $(page, 'video-sub').click()
      await page.keyboard.type('E2E子一')
      await page.locator('.ant-select-tree-treenode', { hasText: 'E2E子一' }).first().click()
      await $(page, 'video-save').click()
      await toast(page, '视频已创建')
      await $(page, 'video-state').waitFor()
      const v1 = (await ok('content', 'GET', '/api/admin/videos?title=E2E%E8%A7%86%E9%A2%91%E4%B8%80')).list[0]
      assert.equal(v1.access, 'free')
      assert.equal(v1.published, false)
      await $(page, 'video-access').click()
      await page.locator('.ant-select-item-option[title="金币"]').click()
      await page.locator('[data-testid="video-price"] input, input[data-testid="video-price"]').first().fill('30')
      await $(page, 'video-cover-file').setInputFiles({ name: 'cover.png', mimeType: 'image/png', buffer: render('c.png', ['-f', 'lavfi', '-i', 'color=c=teal:s=320x180', '-frames:v', '1']) })
      await page.getByText('封面已上传').waitFor({ timeout: 15000 })
      await $(page, 'video-save').click()
      await toast(page, '视频已保存')
      const clip = render('clip.mp4', ['-f', 'lavfi', '-i', 'color=c=navy:s=320x240:d=2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast'])
      await $(page, 'video-file').setInputFiles({ name: 'clip.mp4', mimeType: 'video/mp4', buffer: clip })
      await toast(page, '视频文件已上传')
      await $(page, 'media-state').waitFor({ timeout: 15000 })
      await shot(page, 'console-content-video-drawer')
      const edited = await ok('content', 'GET', `/api/admin/videos/info?id=${v1.id}`)
      assert.equal(edited.access, 'gold')
      assert.equal(edited.coins, 30)
      assert.match(edited.cover, /^\/media\/covers\//)
      assert.ok(edited.mediaId > 0)
      await page.keyboard.press('Escape')

      // A second draft; both published from the list at once.
      const v2 = await ok('content', 'POST', '/api/admin/videos', { title: 'E2E视频二', subModuleID: subs[1].id })
      await $(page, 'videos-title').fill('E2E视频')
      await $(page, 'videos-search').click()
      await $(page, `video-open-${v2.id}`).waitFor()
      await $(page, `video-open-${v1.id}`).waitFor()
      await $(page, 'videos-table').locator('thead .ant-checkbox-input').check()
      await $(page, 'bulk-publish').click()
      await toast(page, '已处理 2 个视频')
      await shot(page, 'console-content-videos')
      for (const id of [v1.id, v2.id]) assert.equal((await ok('content', 'GET', `/api/admin/videos/info?id=${id}`)).published, true)

      // The audit rows of every change.
      const target = (rows, t) => rows.filter((r) => r.target === t)
      assert.equal(target(await audit('module.order'), 'module:0').length >= 1, true, 'module.order of the top level')
      assert.equal(target(await audit('module.order'), `module:${a.id}`).length, 1)
      assert.equal(target(await audit('module.create'), `module:${a.id}`).length, 1)
      const updates = target(await audit('video.update'), `video:${v1.id}`)
      assert.ok(updates.some((r) => r.after?.coins === 30), JSON.stringify(updates))
      assert.equal(target(await audit('video.media'), `video:${v1.id}`).length, 1)
      const pubs = await audit('video.publish')
      for (const id of [v1.id, v2.id]) assert.equal(target(pubs, `video:${id}`).length, 1, `video.publish of ${id}`)
      assert.deepEqual(real(problems), [])
    } catch (e) {
      await shot(page, 'console-content-failed')
      throw e
    } finally {
      await context.close()
    }
  })

  test('content: the videos page at phone size', async () => {
    const { context, page, problems } = await ctx.open('content', { phone: true })
    try {
      await page.goto(ctx.server.base + '/admin/content/videos')
      await $(page, 'videos-table').locator('.ant-table-row').first().waitFor({ timeout: 15000 })
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      assert.ok(overflow <= 1, `the page scrolls sideways by ${overflow}px`)
      await shot(page, 'console-content-videos-phone')
      await page.goto(ctx.server.base + '/admin/content/shorts')
      await page.getByText('短视频').first().waitFor()
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })
}
