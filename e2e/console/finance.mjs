// The console's money pages in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). As the finance
// operator on a laptop: the sandbox provider switched off on 支付渠道 (the
// phone app's package list stops offering it and a new order is refused),
// then on again, each switch one audit row; a user's sandbox top-up shows
// on today's row of 对账 with no difference, and 运行账本检查 says the ledger
// is sound. Then the reconciliation page at phone size.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

const stamp = Date.now().toString(36).slice(-6)
const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))
// today is the Asia/Shanghai date the reconciliation counts days in.
const today = () => new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10)

// checked waits for a switch to show state (aria-checked), failing after 5 s.
const checked = async (sw, state) => {
  const end = Date.now() + 5000
  while ((await sw.getAttribute('aria-checked')) !== state) {
    assert.ok(Date.now() < end, `the switch never showed aria-checked=${state}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

export default function register(test, ctx) {
  const data = (r, what) => {
    assert.equal(r.status, 200, `${what}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }
  const audit = async (action) => data(await ctx.api('owner', 'GET', `/api/admin/audit?action=${action}`), 'audit ' + action).list

  test('finance: a provider switched off and on; a sandbox top-up reconciles with no difference; the ledger check is ok', async () => {
    const pkg = data(await ctx.api('finance', 'POST', '/api/admin/currencys', { name: '对账' + stamp, coins: 60, price: 600 }), 'package')
    const user = data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: 'finu' + stamp, passWord: 'secret12' }), 'register').token
    const offered = async () => {
      const list = data(await ctx.api(user, 'GET', '/api/app/mine/currencys'), 'currencys')
      return list.find((p) => p.id === pkg.id).payTypes.some((t) => t.code === 'sandbox')
    }
    const topay = (key) => ctx.api(user, 'POST', '/api/app/mine/topay', { productType: 'coins', productID: pkg.id, payType: 'sandbox', idempotencyKey: key + stamp })
    const switches = (await audit('provider.switch')).length

    const { context, page, problems } = await ctx.open('finance')
    try {
      await page.goto(ctx.server.base + '/admin/money/providers')
      const sw = ctx.$(page, 'provider-switch-sandbox')
      await sw.waitFor({ timeout: 15000 })
      assert.equal(await sw.getAttribute('aria-checked'), 'true')
      await sw.click()
      await page.getByText('已关闭 沙箱支付').waitFor()
      await checked(sw, 'false')
      assert.equal(await offered(), false)
      const refused = await topay('fin-off-')
      assert.equal(refused.status, 422, JSON.stringify(refused.env))
      await shot(page, 'console-finance-providers')
      await sw.click()
      await page.getByText('已开启 沙箱支付').waitFor()
      await checked(sw, 'true')
      assert.equal(await offered(), true)
      const sw2 = await audit('provider.switch')
      assert.equal(sw2.length, switches + 2)
      assert.equal(sw2[0].actorAccount, 'sec_finance')

      // A top-up paid through the sandbox's hosted page.
      const order = data(await topay('fin-on-'), 'topay')
      const pay = new URL(order.payUrl, ctx.server.base)
      const paid = await fetch(pay.origin + pay.pathname, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ action: 'pay', t: pay.searchParams.get('k') }) })
      assert.equal(paid.status, 303)

      await page.goto(ctx.server.base + '/admin/money/reconciliation')
      const row = ctx.$(page, `recon-topup-${today()}`)
      await row.waitFor({ timeout: 15000 })
      assert.equal(await row.getAttribute('data-diff'), '0')
      const recon = data(await ctx.api('finance', 'GET', `/api/admin/reconciliation?from=${today()}&to=${today()}`), 'reconciliation')
      const sandbox = recon.days[0].topup.providers.find((p) => p.payType === 'sandbox')
      assert.ok(sandbox.paid >= 600 && sandbox.diff === 0, JSON.stringify(sandbox))
      await ctx.$(page, 'ledger-check').click()
      const result = ctx.$(page, 'ledger-check-result')
      await result.waitFor({ timeout: 15000 })
      assert.equal(await result.getAttribute('data-ok'), 'true', await result.innerText())
      await page.getByText('账本正常').waitFor()
      await shot(page, 'console-finance-reconciliation')
      assert.ok((await audit('wallet.check')).some((r) => r.actorAccount === 'sec_finance'))
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
      // The other walks top up through the sandbox: never leave it off.
      data(await ctx.api('finance', 'POST', '/api/admin/providers', { name: 'sandbox', enabled: true }), 'sandbox back on')
    }

    const phone = await ctx.open('finance', { phone: true })
    try {
      await phone.page.goto(ctx.server.base + '/admin/money/reconciliation')
      await ctx.$(phone.page, `recon-topup-${today()}`).waitFor({ timeout: 15000 })
      const overflow = await phone.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`)
      await shot(phone.page, 'console-finance-reconciliation-phone')
      assert.deepEqual(real(phone.problems), [])
    } finally {
      await phone.context.close()
    }
  })
}
