// The console's growth section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). As finance on a
// laptop: a redemption-code batch is made in the browser, its codes shown
// once and downloaded as codes-batch-<id>.csv (the file read back: every
// code, no other); one code from the file redeems in the phone API and the
// list counts it; the batch is disabled after a confirmation and a second
// code from the file is refused. The audit has the batch's create and
// disable. Then the page at phone size.
import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { shot } from '../harness.mjs'

const stamp = Date.now().toString(36).slice(-6)

// real drops the component library's run-time <style> elements refused
// harmlessly by the CSP (as moderation.mjs does).
const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))

export default function register(test, ctx) {
  const data = (r, what) => {
    assert.equal(r.status, 200, `${what}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }

  test('growth: a code batch made in the browser, its CSV downloaded once, one code redeemed, the batch disabled', async () => {
    const NAME = '春节活动' + stamp
    const { context, page, problems } = await ctx.open('finance')
    try {
      await page.goto(ctx.server.base + '/admin/growth/codes')
      await ctx.$(page, 'codes-create').click()
      await ctx.$(page, 'codes-name').fill(NAME)
      await ctx.$(page, 'codes-count').fill('3')
      await ctx.$(page, 'codes-coins').fill('7')
      await ctx.$(page, 'codes-submit').click()
      await ctx.$(page, 'codes-list').waitFor({ timeout: 15000 })
      await page.getByText('这些兑换码只显示这一次').waitFor()
      const shown = (await ctx.$(page, 'codes-list').innerText()).trim().split('\n')
      assert.equal(shown.length, 3)

      const [download] = await Promise.all([page.waitForEvent('download'), ctx.$(page, 'codes-download').click()])
      const batches = data(await ctx.api('finance', 'GET', '/api/admin/codes/batches'), 'batches').list
      const batch = batches.find((b) => b.name === NAME)
      assert.ok(batch, 'the batch is listed')
      assert.equal(download.suggestedFilename(), `codes-batch-${batch.id}.csv`)
      const lines = (await readFile(await download.path(), 'utf8')).split(/\r?\n/).filter(Boolean)
      assert.equal(lines[0], 'code')
      const codes = lines.slice(1)
      assert.equal(codes.length, batch.count)
      assert.deepEqual(codes, shown)
      for (const c of codes) assert.match(c, /^[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}$/)
      await page.getByText(`已下载 codes-batch-${batch.id}.csv`).waitFor()
      await shot(page, 'console-growth-codes-made')
      await ctx.$(page, 'codes-close').click()
      await ctx.$(page, 'codes-list').waitFor({ state: 'detached' })

      // A phone user redeems one code from the file.
      const user = data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: 'grow' + stamp, passWord: 'secret12' }), 'register').token
      const red = data(await ctx.api(user, 'POST', '/api/app/code/exchange', { code: codes[0].toLowerCase() }), 'redeem')
      assert.equal(red.reward.coins, 7)
      await page.reload()
      await ctx.$(page, `codes-redeemed-${batch.id}`).waitFor({ timeout: 15000 })
      assert.equal((await ctx.$(page, `codes-redeemed-${batch.id}`).innerText()).trim(), '1 / 3')

      // Disabled after a confirmation: the state says so, the next code is refused.
      await ctx.$(page, `codes-disable-${batch.id}`).click()
      await ctx.$(page, 'codes-disable-ok').click()
      await page.getByText('批次已停用').waitFor()
      await page.locator(`[data-testid="codes-state-${batch.id}"]`, { hasText: '已停用' }).waitFor()
      const refused = await ctx.api(user, 'POST', '/api/app/code/exchange', { code: codes[1] })
      assert.equal(refused.status, 404, JSON.stringify(refused.env)) // a disabled batch's code is as unknown as a guess
      const audit = async (action) => data(await ctx.api('owner', 'GET', `/api/admin/audit?action=${action}`), 'audit ' + action).list
      assert.ok((await audit('codes.batch.create')).some((r) => r.target === `code_batch:${batch.id}` && r.actorAccount === 'sec_finance'))
      assert.ok((await audit('codes.batch.disable')).some((r) => r.target === `code_batch:${batch.id}`))
      await shot(page, 'console-growth-codes')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }

    // At phone size: the list fits the width.
    const phone = await ctx.open('finance', { phone: true })
    try {
      await phone.page.goto(ctx.server.base + '/admin/growth/codes')
      await phone.page.getByText(NAME).waitFor({ timeout: 15000 })
      await shot(phone.page, 'console-growth-codes-phone')
      assert.ok(await phone.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'the page overflows on a phone')
      assert.deepEqual(real(phone.problems), [])
    } finally {
      await phone.context.close()
    }
  })
}
