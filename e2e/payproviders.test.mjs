// Paying through a real redirect provider, as a guest on an iPhone 13
// (Chromium): the server is configured with an EasyPay (彩虹易支付) merchant
// at a fake gateway written here from the protocol (not the Go fake the
// server's own tests use, so one implementation checks the other): MD5 over
// the sorted parameters plus the key, submit.php page jump, the cashier
// page, the asynchronous notice (answered "success") and the way back to
// the result page with the gateway's signed result in the query. The
// sandbox is off. The top-up page lists 支付宝 / 微信支付 / QQ钱包, opens the
// gateway, and after paying the result page polls the order to paid. A way
// back forged for an unpaid order (even well signed) only polls: it credits
// nothing.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { createHash } from 'node:crypto'
import { startServer, launchPhone, shot, freePort, signedIn } from './harness.mjs'

const PID = '1001'
const KEY = 'e2e-merchant-key-0123456789'

// sign is the protocol's signature (plain style: the key appended).
function sign(params) {
  const s = Object.keys(params)
    .filter((k) => k !== 'sign' && k !== 'sign_type' && params[k] !== '')
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return createHash('md5').update(s + KEY, 'utf8').digest('hex')
}

// The fake gateway: orders by out_trade_no, and what the merchant answered
// to each notice.
const orders = new Map()
const answers = []
let gateway, gatewayURL

function notice(o) {
  const p = { pid: PID, trade_no: o.trade_no, out_trade_no: o.out_trade_no, type: o.type, name: o.name, money: o.money, trade_status: 'TRADE_SUCCESS' }
  return { ...p, sign: sign(p), sign_type: 'MD5' }
}

function startGateway(port) {
  let seq = 0
  gateway = http.createServer(async (req, res) => {
    const u = new URL(req.url, gatewayURL)
    const html = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' })
      res.end(`<!doctype html><html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>收银台</title>
<style>body{font:16px -apple-system,sans-serif;margin:0;padding:24px;background:#f2f2f2}main{background:#fff;border-radius:12px;padding:24px}
.amt{font-size:36px;font-weight:700}button{width:100%;height:48px;border:0;border-radius:24px;background:#1677ff;color:#fff;font-size:17px}</style></head><body><main>${body}</main></body></html>`)
    }
    if (u.pathname === '/submit.php') {
      const p = Object.fromEntries(u.searchParams)
      if (p.pid !== PID || p.sign !== sign(p)) return html(400, '<h1>签名校验失败</h1>')
      let o = orders.get(p.out_trade_no)
      if (!o) {
        o = { ...p, trade_no: `2026${String(++seq).padStart(12, '0')}`, paid: false }
        orders.set(p.out_trade_no, o)
      }
      return html(200, `<h1>测试网关收银台</h1><p>${o.name}</p><p class="amt" data-testid="gw-amount">¥${o.money}</p><p>${o.type === 'wxpay' ? '微信支付' : o.type}</p>
<form method="post" action="/pay/${o.trade_no}"><button type="submit">确认付款</button></form>`)
    }
    const pay = u.pathname.match(/^\/pay\/(\d+)$/)
    if (pay && req.method === 'POST') {
      const o = [...orders.values()].find((x) => x.trade_no === pay[1])
      if (!o) return html(404, 'no order')
      o.paid = true
      const n = notice(o)
      // The asynchronous notice (GET), before the payer is sent back.
      const r = await fetch(`${o.notify_url}?${new URLSearchParams(n)}`)
      answers.push({ status: r.status, body: await r.text() })
      res.writeHead(302, { Location: `${o.return_url}${o.return_url.includes('?') ? '&' : '?'}${new URLSearchParams(n)}` })
      return res.end()
    }
    if (u.pathname === '/api.php') {
      const o = orders.get(u.searchParams.get('out_trade_no'))
      res.writeHead(200, { 'Content-Type': 'application/json' })
      if (u.searchParams.get('key') !== KEY || !o) return res.end(JSON.stringify({ code: -1, msg: '订单号不存在' }))
      return res.end(JSON.stringify({ code: 1, trade_no: o.trade_no, out_trade_no: o.out_trade_no, type: o.type, pid: PID, money: o.money, status: o.paid ? 1 : 0 }))
    }
    html(404, 'not found')
  })
  return new Promise((r) => gateway.listen(port, '127.0.0.1', r))
}

let server, phone, page
const $ = (id) => page.locator(`[data-testid=${id}]`)

before(async () => {
  const gport = await freePort()
  gatewayURL = `http://127.0.0.1:${gport}/`
  await startGateway(gport)
  const port = await freePort()
  server = await startServer({
    PRIMA_LISTEN: `127.0.0.1:${port}`,
    PRIMA_PUBLIC_URL: `http://127.0.0.1:${port}`,
    PRIMA_PAY_SANDBOX: '0',
    PRIMA_EPAY_GATEWAY: gatewayURL,
    PRIMA_EPAY_PID: PID,
    PRIMA_EPAY_KEY: KEY,
    PRIMA_EPAY_CHANNELS: 'alipay,wxpay,qqpay',
  })
  phone = await launchPhone()
  page = phone.page
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
  await new Promise((r) => gateway?.close(r))
})

async function api(path, body) {
  const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const headers = token ? { Authorization: `Bearer ${token}` } : {}
  const init = body ? { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : { headers }
  const env = await (await fetch(server.base + path, init)).json()
  assert.equal(env.code, 200, `${path}: ${env.msg}`)
  return env.data
}

const coins = async () => (await api('/api/app/mine/wallet')).coins

test('the top-up page lists the gateway channels, pays at the gateway and the result page sees it paid', async () => {
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await page.goto(server.base + '/mine/usercoinchongzhi')
  await $('package').first().waitFor({ timeout: 15000 })
  const codes = await page.locator('[data-testid=paytype]').evaluateAll((els) => els.map((e) => e.dataset.code))
  assert.deepEqual(codes, ['epay_alipay', 'epay_wxpay', 'epay_qqpay'])
  const labels = await page.locator('[data-testid=paytype]').evaluateAll((els) => els.map((e) => e.parentElement.textContent.trim()))
  assert.deepEqual(labels, ['支付宝', '微信支付', 'QQ钱包'])
  await page.locator('[data-testid=paytype][data-code=epay_wxpay]').check()
  await shot(page, 'epay-01-topup')

  const packages = await api('/api/app/mine/currencys?type=1')
  const pkg = packages[0]
  await page.locator(`[data-testid=package][data-id="${pkg.id}"]`).click()
  await page.locator('[data-testid=paytype][data-code=epay_wxpay]').check()
  await $('topup-pay').click()
  await page.waitForURL((u) => u.href.startsWith(gatewayURL + 'submit.php'), { timeout: 15000 })
  await page.getByRole('button', { name: '确认付款' }).waitFor()
  assert.equal(await page.locator('[data-testid=gw-amount]').innerText(), `¥${(pkg.price / 100).toFixed(2)}`)
  await shot(page, 'epay-02-gateway-cashier')

  await page.getByRole('button', { name: '确认付款' }).click()
  await page.waitForURL(/\/mine\/usercoinchongzhi\?orderNo=P\d+&.*trade_status=TRADE_SUCCESS/, { timeout: 15000 })
  await page.locator('[data-testid=topup-result][data-outcome=success]').waitFor({ timeout: 15000 })
  await shot(page, 'epay-03-result-paid')
  assert.deepEqual(answers, [{ status: 200, body: 'success' }], 'the notice was answered with exactly "success"')
  assert.equal(await coins(), pkg.coins + pkg.bonus)
})

test('a way back with a signed result for an unpaid order only polls and credits nothing', async () => {
  const before = await coins()
  const packages = await api('/api/app/mine/currencys?type=1')
  const o = await api('/api/app/mine/topay', { productType: 'coins', productID: packages[0].id, payType: 'epay_alipay', idempotencyKey: `e2e-back-${Date.now()}` })
  assert.ok(o.payUrl.startsWith(gatewayURL + 'submit.php?'), o.payUrl)
  // The result the gateway would send back, signed with the merchant's
  // real key: the browser is no channel for payments, signed or not.
  const forged = notice({ trade_no: '999', out_trade_no: o.orderNo, type: 'alipay', name: o.title, money: (o.amount / 100).toFixed(2) })
  const calls = []
  const onRequest = (r) => { if (r.url().startsWith(server.base + '/api/')) calls.push(`${r.method()} ${new URL(r.url()).pathname}`) }
  page.on('request', onRequest)
  await page.goto(`${server.base}/mine/usercoinchongzhi?orderNo=${o.orderNo}&${new URLSearchParams(forged)}`)
  await page.locator('[data-testid=topup-result][data-outcome=waiting]').waitFor({ timeout: 15000 })
  await page.waitForTimeout(3500) // a few polls
  page.off('request', onRequest)
  await shot(page, 'epay-04-result-waiting')
  const order = (await api(`/api/app/mine/rchg/order?orderNo=${o.orderNo}`)).list[0]
  assert.equal(order.status, 'pending')
  assert.equal(await coins(), before)
  assert.ok(calls.some((c) => c === 'GET /api/app/mine/rchg/order'), `the page polls the order: ${calls}`)
  assert.deepEqual(calls.filter((c) => !c.startsWith('GET ')), [], 'the result page sends nothing but reads')
})

test('the VIP centre offers the same channels for a card bought with money', async () => {
  const products = await api('/api/app/vip/product')
  assert.deepEqual(products.payTypes.map((p) => p.name), ['支付宝', '微信支付', 'QQ钱包'])
  const card = products.list.find((p) => p.level === 1 && p.price > 0 && !p.newUser)
  assert.ok(card, 'the seed sells a VIP card for money')
  await page.goto(server.base + '/mine/vipcenter')
  await page.locator(`[data-testid=vip-card][data-id="${card.id}"] [data-testid=vip-buy-money]`).click()
  await $('paytype-sheet').waitFor()
  const labels = await $('paytype-sheet').locator('[data-testid=paytype]').evaluateAll((els) => els.map((e) => e.parentElement.textContent.trim()))
  assert.deepEqual(labels, ['支付宝', '微信支付', 'QQ钱包'])
  await shot(page, 'epay-05-vip-sheet')
})
