// Throwaway (not committed): screenshots of the wallet pages with the
// endpoints that have not landed yet answered by route mocks.
import { startServer, launchPhone } from './harness.mjs'
const server = await startServer()
const env = (data) => ({ status: 200, contentType: 'application/json', body: JSON.stringify({ code: 200, tip: '', msg: '', data }) })
const now = Date.now()
const products = {
  list: [
    { id: 1, level: 1, name: '月卡VIP', days: 30, price: 3000, originalPrice: 5000, coins: 300, label: '热卖', newUser: false, coupons: 0 },
    { id: 2, level: 1, name: '年卡VIP', days: 365, price: 19800, originalPrice: 36000, coins: 2000, label: '', newUser: false, coupons: 3 },
    { id: 3, level: 2, name: '月卡超级VIP', days: 30, price: 6800, originalPrice: 0, coins: 700, label: '', newUser: false, coupons: 2 },
    { id: 4, level: 1, name: '新人VIP', days: 7, price: 600, originalPrice: 3000, coins: 0, label: '', newUser: true, coupons: 0 },
  ],
  tiers: { vip: new Date(now + 40 * 86400e3).toISOString(), svip: null },
}
const pkgs = [
  { id: 1, type: 1, name: '100金币', coins: 100, bonus: 0, price: 1000, originalPrice: 0, label: '', payTypes: [{ code: 'sandbox', name: '沙箱支付' }] },
  { id: 2, type: 1, name: '500金币', coins: 500, bonus: 50, price: 5000, originalPrice: 0, label: '热卖', payTypes: [{ code: 'sandbox', name: '沙箱支付' }] },
  { id: 3, type: 1, name: '1000金币', coins: 1000, bonus: 200, price: 10000, originalPrice: 12000, label: '', payTypes: [{ code: 'sandbox', name: '沙箱支付' }] },
  { id: 4, type: 1, name: '3000金币', coins: 3000, bonus: 800, price: 30000, originalPrice: 0, label: '超值', payTypes: [{ code: 'sandbox', name: '沙箱支付' }] },
]
const order = (status) => ({ orderNo: 'P20261123000001', productType: 'coins', productID: 2, title: '500金币', amount: 5000, coins: 500, bonus: 50, payType: 'sandbox', status, payUrl: '', createdAt: new Date().toISOString(), paidAt: null, expiresAt: new Date().toISOString() })
const backpack = [
  { position: 'unused', coupons: [{ id: 1, name: '金币视频观影券', count: 2, expiresAt: new Date(now + 10 * 86400e3).toISOString() }] },
  { position: 'used', coupons: [] },
  { position: 'expired', coupons: [{ id: 1, name: '金币视频观影券', count: 1, expiresAt: null }] },
]
let status = process.argv[2] ?? 'paid'
for (const scheme of ['light', 'dark']) {
  const { page, browser, errors } = await launchPhone({ colorScheme: scheme })
  await page.route('**/api/app/vip/product', (r) => r.fulfill(env(products)))
  await page.route('**/api/app/vip/tiroCountdown**', (r) => r.fulfill(env({ isNew: true, secondsLeft: 80000, offer: products.list[3] })))
  await page.route('**/api/app/mine/currencys**', (r) => r.fulfill(env(pkgs)))
  await page.route('**/api/app/mine/rchg/order**', (r) => r.fulfill(env({ list: [order(status)], total: 1, pageNumber: 1, pageSize: 1, hasMore: false })))
  await page.route('**/api/app/backpack', (r) => r.fulfill(env(backpack)))
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  for (const [path, name] of [['/mine', 'mine'], ['/mine/vipcenter', 'vip'], ['/mine/vipcenter?level=2', 'svip'], ['/mine/usercoinchongzhi', 'topup'], ['/mine/usercoinchongzhi?orderNo=P20261123000001', 'result'], ['/mine/backpack', 'backpack'], ['/mine/userbuy', 'userbuy']]) {
    await page.goto(server.base + path)
    await page.waitForTimeout(1200)
    await page.screenshot({ path: `/tmp/webpay-shots/${name}-${scheme}.png`, fullPage: true })
  }
  await page.goto(server.base + '/mine/vipcenter')
  await page.waitForTimeout(800)
  await page.locator('[data-testid=vip-buy-coins]').first().click()
  await page.waitForTimeout(800)
  await page.screenshot({ path: `/tmp/webpay-shots/vipsheet-${scheme}.png` })
  console.log(scheme, errors)
  await browser.close()
}
await server.stop()
