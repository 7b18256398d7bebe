// The console's money section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). On a laptop: the
// owner sets the two-person threshold on the withdrawal page; a user (made
// with the phone API, income from an operator's adjustment, a bank card)
// withdraws above it; finance approves in the browser and the withdrawal
// stays pending, marked 待复核 with the first approver; finance approving
// again is refused; the owner approves and it is paid. At phone size:
// finance refunds a sandbox-paid order from the orders page. Each decision
// has its audit row.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

const stamp = Date.now().toString(36).slice(-6)
const CARD = '6222021234567890128'

// real drops the component library's two run-time <style> elements the
// CSP refuses harmlessly (as moderation.mjs does).
const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))

export default function register(test, ctx) {
  const data = (r, what) => {
    assert.equal(r.status, 200, `${what}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }
  const audit = async (action) => data(await ctx.api('owner', 'GET', `/api/admin/audit?action=${action}`), 'audit ' + action).list
  const newUser = async (prefix) => data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: prefix + stamp, passWord: 'secret12' }), 'register')

  test('money: a withdrawal above the two-person threshold needs two operators', async () => {
    const u = await newUser('monw')
    data(await ctx.api('finance', 'POST', '/api/admin/wallet/adjust', { uid: u.user.uid, account: 'income', amount: 50_000, reason: 'e2e 佣金', idempotencyKey: 'e2e-money-' + stamp }), 'adjust')
    const card = data(await ctx.api(u.token, 'POST', '/api/app/mine/txnact/bank/add', { actType: 1, bankName: '中国银行', holder: '张三', number: CARD, passWord: 'secret12' }), 'card')
    const owner = await ctx.open('owner')
    const finance = await ctx.open('finance')
    try {
      // The owner sets the threshold: ¥100.
      await owner.page.goto(ctx.server.base + '/admin/money/withdrawals')
      await ctx.$(owner.page, 'threshold-input').waitFor({ timeout: 15000 })
      await ctx.$(owner.page, 'threshold-input').fill('100')
      await ctx.$(owner.page, 'threshold-save').click()
      await owner.page.getByText('已保存复核金额').waitFor()
      assert.equal(data(await ctx.api('finance', 'GET', '/api/admin/withdrawals/settings'), 'settings').twoPersonAbove, 10_000)

      const w = data(await ctx.api(u.token, 'POST', '/api/app/withdraw', { amount: 20_000, accountID: card.id, passWord: 'secret12', idempotencyKey: 'e2e-wd-' + stamp }), 'withdraw')
      const no = w.orderNo

      // Finance: the first approval holds it.
      const fp = finance.page
      await fp.goto(ctx.server.base + '/admin/money/withdrawals')
      await ctx.$(fp, `w-open-${no}`).waitFor({ timeout: 15000 })
      await ctx.$(fp, 'threshold-value').getByText('¥100.00').waitFor()
      await ctx.$(fp, `w-open-${no}`).click()
      await ctx.$(fp, 'payee-number').getByText(CARD).waitFor()
      await ctx.$(fp, 'risk').waitFor()
      await ctx.$(fp, 'withdraw-approve').click()
      await ctx.$(fp, 'approve-ok').click()
      await fp.getByText('已记录初审批准，等待另一位运营人员复核').waitFor()
      await ctx.$(fp, `w-state-${no}`).getByText('待复核').waitFor()
      await ctx.$(fp, 'awaiting-banner').waitFor()
      await shot(fp, 'console-money-withdrawal-awaiting')
      // The same operator again: refused.
      await ctx.$(fp, 'withdraw-approve').click()
      await ctx.$(fp, 'approve-ok').click()
      await fp.getByText('需要另一位运营人员复核批准').waitFor()
      const pending = data(await ctx.api('finance', 'GET', `/api/admin/withdrawals?status=pending&uid=${u.user.uid}`), 'queue').list.find((x) => x.orderNo === no)
      assert.ok(pending?.awaitingSecond && pending.firstApproverID > 0, JSON.stringify(pending))
      assert.ok(pending.firstApproverName, JSON.stringify(pending))
      await fp.locator(`tr[data-row-key="${no}"]`).getByText(`初审 ${pending.firstApproverName} (#${pending.firstApproverID})`).waitFor()

      // The owner releases it.
      const op = owner.page
      await op.reload()
      await ctx.$(op, `w-state-${no}`).getByText('待复核').waitFor({ timeout: 15000 })
      await ctx.$(op, `w-open-${no}`).click()
      await ctx.$(op, 'awaiting-banner').waitFor()
      await ctx.$(op, 'withdraw-approve').click()
      await ctx.$(op, 'approve-ok').click()
      await op.getByText('已批准，提现已打款').waitFor()
      const paid = data(await ctx.api('finance', 'GET', `/api/admin/withdrawals?status=paid&uid=${u.user.uid}`), 'paid').list
      assert.equal(paid.length, 1)
      assert.equal(paid[0].firstApproverID, pending.firstApproverID)
      assert.notEqual(paid[0].operatorID, paid[0].firstApproverID)
      const first = (await audit('withdraw.approve_first')).find((r) => r.target === `withdrawal:${no}`)
      const second = (await audit('withdraw.approve')).find((r) => r.target === `withdrawal:${no}`)
      assert.equal(first?.actorAccount, 'sec_finance', JSON.stringify(first))
      assert.equal(second?.actorAccount, 'sec_owner', JSON.stringify(second))
      assert.equal(second.after.firstApproverID, pending.firstApproverID)
      assert.ok((await audit('withdraw.settings')).some((r) => r.actorAccount === 'sec_owner' && r.after.twoPersonAbove === 10_000))
      assert.deepEqual(real(owner.problems), [])
      assert.deepEqual(real(finance.problems), [])
    } finally {
      await ctx.api('owner', 'POST', '/api/admin/withdrawals/settings', { twoPersonAbove: 0 })
      await owner.context.close()
      await finance.context.close()
    }
  })

  test('money: a refund of a sandbox-paid order from the orders page, at phone size', async () => {
    const u = await newUser('monr')
    const pkg = data(await ctx.api(u.token, 'GET', '/api/app/mine/currencys?type=1'), 'packages')[0]
    const order = data(await ctx.api(u.token, 'POST', '/api/app/mine/topay', { productType: 'coins', productID: pkg.id, payType: 'sandbox', idempotencyKey: 'e2e-pay-' + stamp }), 'topay')
    const k = new URL(order.payUrl, ctx.server.base).searchParams.get('k')
    const pay = await fetch(`${ctx.server.base}/pay/sandbox/${order.orderNo}`, { method: 'POST', redirect: 'manual', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ action: 'pay', t: k }) })
    assert.equal(pay.status, 303)
    const { context, page, problems } = await ctx.open('finance', { phone: true })
    try {
      await page.goto(ctx.server.base + '/admin/money/orders')
      await ctx.$(page, 'orders-no').waitFor({ timeout: 15000 })
      await ctx.$(page, 'orders-no').fill(order.orderNo)
      await ctx.$(page, 'orders-search').click()
      await ctx.$(page, `order-open-${order.orderNo}`).waitFor()
      await shot(page, 'console-money-orders-phone')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`)
      await ctx.$(page, `order-open-${order.orderNo}`).click()
      await ctx.$(page, 'order-status').getByText('已支付').waitFor()
      await ctx.$(page, 'order-callbacks').getByText('paid').first().waitFor()
      await ctx.$(page, 'order-refund').click()
      await ctx.$(page, 'money-reason').fill('用户误购，协商退款')
      await ctx.$(page, 'money-reason-ok').click()
      await page.getByText('已退款').first().waitFor()
      await ctx.$(page, 'order-status').getByText('已退款').waitFor()
      const after = data(await ctx.api('finance', 'GET', `/api/admin/orders?orderNo=${order.orderNo}`), 'order').list[0]
      assert.equal(after.status, 'refunded')
      const row = (await audit('order.refund')).find((r) => r.target?.endsWith(order.orderNo))
      assert.equal(row?.actorAccount, 'sec_finance', JSON.stringify(row))
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })
}
