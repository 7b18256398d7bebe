// Earnings, as iPhones (Chromium) against the real server (issue 19): A
// shares a link; B opens it on a fresh phone (the visit is counted after the
// guest sign-in), registers and tops up through the sandbox; A sees the
// pending commission on the promotion data (day, week, month, the invitee's
// contribution) and the commission list. The operator sets settleDays 0;
// B tops up twice more and A sees withdrawable income, withdraws it with
// the password sheet, and the operator approves. C applies as a creator,
// the operator approves, C sells a paid post to D (topped up through the
// sandbox), and C sees the earning on /myhome and its list. A applies as a
// promoter (the form's checks first), the operator approves, and A's page
// shows the promoter rates. Each new page is screenshotted as an iPhone in
// light and dark and audited with axe (no serious or critical violation).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { devices } from 'playwright-core'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call } from './media.mjs'

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js')
const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'
const TRC20 = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t'

let server, phone, opToken
const users = {}
// Server faults and script errors on any phone fail the last test.
const faults = []

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  phone = await launchPhone({ bypassCSP: true })
  watch('A', phone.page)
  users.A = { page: phone.page }
  opToken = await consoleToken(server.base, OPERATOR) // the operator console's token (password + TOTP)
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

function watch(who, page) {
  page.on('response', (r) => { if (r.status() >= 500) faults.push(`${who} ${r.status()} ${new URL(r.url()).pathname}`) })
  page.on('pageerror', (e) => faults.push(`${who} page error: ${e.message}`))
}

// newPhone: another iPhone with empty storage (a new device id).
async function newPhone(who) {
  const context = await phone.browser.newContext({ ...devices['iPhone 13'], locale: 'zh-CN', timezoneId: 'Asia/Shanghai', bypassCSP: true })
  const page = await context.newPage()
  watch(who, page)
  users[who] = { page, context }
  return page
}

const $ = (page, id) => page.locator(`[data-testid=${id}]`)
// Each call asks consoleToken again: it steps the session up when its
// code is older than 4 minutes (the commission settings need a fresh one).
const op = async (method, path, body) => call(server.base, method, path, { token: (opToken = await consoleToken(server.base, OPERATOR)), body })
const as = (who, method, path, body) => call(server.base, method, path, { token: users[who].token, body })

async function register(who, page) {
  const account = `${who.toLowerCase()}_${stamp}`
  await page.goto(server.base + '/mine/register')
  await $(page, 'register-account').fill(account)
  await $(page, 'register-password').fill(PASSWORD)
  await $(page, 'register-confirm').fill(PASSWORD)
  await $(page, 'register-submit').click()
  await page.waitForURL(/\/mine$/, { timeout: 15000 })
  users[who].token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  users[who].uid = (await as(who, 'GET', '/api/app/mine/info')).uid
  await as(who, 'POST', '/api/app/mine/info', { name: `用户${who}${stamp}` })
}

// topUp pays one coin package through the sandbox as a user would and
// answers the order's amount in cents.
async function topUp(page, pkg) {
  await page.goto(server.base + '/mine/usercoinchongzhi')
  await page.locator(`[data-testid=package][data-id="${pkg.id}"]`).click()
  await page.locator('[data-testid=paytype][data-code=sandbox]').check()
  await $(page, 'topup-pay').click()
  await page.waitForURL(/\/pay\/sandbox\//, { timeout: 15000 })
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/\/mine\/usercoinchongzhi\?orderNo=/, { timeout: 15000 })
  await page.locator('[data-testid=topup-result][data-outcome=success]').waitFor({ timeout: 15000 })
  return pkg.price
}

async function audit(page) {
  await page.locator('.adm-toast-mask').waitFor({ state: 'detached', timeout: 5000 }).catch(() => {})
  await page.addStyleTag({ content: '*, *::before, *::after { animation-duration: 0s !important; transition-duration: 0s !important; }' })
  await page.addScriptTag({ path: axePath })
  return page.evaluate(async () => {
    const r = await window.axe.run(document, { resultTypes: ['violations'] })
    return r.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v) => v.nodes.map((n) => `[${v.impact}] ${v.id} at ${n.target.join(' ')}: ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`))
  })
}

// both screenshots a page in light and dark (390 px wide, the iPhone 13)
// and audits each; no sideways scrolling either.
async function both(page, name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await page.waitForTimeout(150)
    await shot(page, `earnings-${name}-${scheme}`)
    const bad = await audit(page)
    assert.deepEqual(bad, [], `${name} (${scheme}) has serious accessibility violations:\n${bad.join('\n')}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.equal(overflow, 0, `${name}: no sideways scrolling`)
}

const cents = async (loc) => Number(await loc.getAttribute('data-cents'))
const yuan = (c) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`

let code, config, big, firstOrder

test('A registers and reads the share link; the promoter pages start empty', async () => {
  const page = users.A.page
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  // A guest is asked to register on the promoter pages.
  await page.goto(server.base + '/mine/usershareshenqing')
  await $(page, 'earn-guest').waitFor({ timeout: 15000 })
  assert.equal(await $(page, 'earn-register').getAttribute('href'), '/mine/register')
  await both(page, 'promoter-guest')
  await register('A', page)
  await page.goto(server.base + '/mine/shareyaoqing')
  await $(page, 'invite-code').waitFor({ timeout: 15000 })
  code = await $(page, 'invite-code').getAttribute('data-code')
  assert.equal(await $(page, 'invite-link').innerText(), `${server.base}/?ic=${code}`)

  config = await op('GET', '/api/admin/commission/config')
  assert.equal(config.settleDays, 7)
  await page.goto(server.base + '/mine/commissions')
  await page.locator('[data-testid=commissions-page] [data-testid=state-empty]').waitFor({ timeout: 15000 })
  await both(page, 'commissions-empty')
})

test('B opens the link on a fresh phone: the visit counts once the guest is signed in; B registers and tops up', async () => {
  const page = await newPhone('B')
  const order = []
  page.on('response', (r) => { if (r.url().endsWith('/api/app/mine/login')) order.push('signed in') })
  page.on('request', (r) => { if (r.url().endsWith('/api/app/userinvite/visit')) order.push('visit') })
  const login = page.waitForResponse((r) => r.url().endsWith('/api/app/mine/login'), { timeout: 20000 })
  const visit = page.waitForResponse((r) => r.url().endsWith('/api/app/userinvite/visit'), { timeout: 20000 })
  await page.goto(`${server.base}/?ic=${code.toLowerCase()}`)
  const [l, v] = await Promise.all([login, visit])
  // The guest sign-in binds the inviter (cutInfos); the visit follows it,
  // with the new session, and counts.
  assert.equal(JSON.parse(l.request().postData()).cutInfos, `ic=${code}`)
  assert.deepEqual(JSON.parse(v.request().postData()), { code })
  assert.match(v.request().headers().authorization ?? '', /^Bearer \S+/)
  assert.deepEqual((await v.json()).data, { counted: true })
  assert.deepEqual(order, ['signed in', 'visit'])
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
  await register('B', page)
  const pkgs = await as('B', 'GET', '/api/app/mine/currencys?type=1')
  big = [...pkgs].sort((a, b) => b.price - a.price)[0]
  firstOrder = await topUp(page, big)
})

test('A sees the pending commission: promotion data by day, week and month, the invitee, the list', async () => {
  const page = users.A.page
  const rate = config.levels[0]
  const expected = Math.floor((firstOrder * rate) / 10000)
  assert.ok(expected > 0)
  await page.goto(server.base + '/mine/pushdata')
  await $(page, 'promoter-card').waitFor({ timeout: 15000 })
  await page.locator(`[data-testid=data-pending][data-cents="${expected}"]`).waitFor({ timeout: 15000 })
  assert.equal(await cents($(page, 'data-settled')), 0)
  assert.equal(await $(page, 'promoter-tier').getAttribute('data-tier'), 'member')
  assert.equal(await $(page, 'invite-total').innerText(), '1')
  await $(page, 'data-figures').waitFor()
  assert.equal(await $(page, 'data-figures').getAttribute('data-period'), 'day')
  // Today's figures are the server's (a run that crosses midnight in
  // Shanghai has B's actions yesterday, so the values are checked on the
  // month below).
  const day = await as('A', 'GET', '/api/app/mine/promoter/stats?period=day')
  for (const k of ['visits', 'registrations', 'payers', 'paidCents', 'commissionCents']) {
    assert.equal(await $(page, `data-${k}`).getAttribute('data-value'), String(day[k]), k)
  }
  assert.equal(await $(page, 'data-paidCents').innerText(), `¥${yuan(day.paidCents)}`)
  await both(page, 'pushdata-day')

  await $(page, 'period-week').click()
  await page.waitForURL(/period=week/)
  await page.locator('[data-testid=data-figures][data-period=week]').waitFor({ timeout: 15000 })
  const stats = await as('A', 'GET', '/api/app/mine/promoter/stats?period=week')
  // A bar per day from Monday, drawn once the week has more than one day
  // (on a Monday the day's figures say it all).
  assert.equal(await $(page, 'data-bar').count(), stats.series.length > 1 ? stats.series.length : 0)
  if (stats.series.length > 1) {
    await $(page, 'metric-paidCents').click()
    const todayPaid = stats.series[stats.series.length - 1].paidCents
    await page.locator(`[data-testid=data-chart][data-metric=paidCents] [data-testid=data-bar][data-value="${todayPaid}"]`).last().waitFor()
    assert.equal(await $(page, 'data-day').count(), stats.series.length)
  }
  await both(page, 'pushdata-week')
  await $(page, 'period-month').click()
  await page.locator('[data-testid=data-figures][data-period=month]').waitFor({ timeout: 15000 })
  assert.ok(Number(await $(page, 'data-visits').getAttribute('data-value')) >= 1, 'the link visit counted')
  assert.equal(await $(page, 'data-registrations').getAttribute('data-value'), '1')
  assert.equal(await $(page, 'data-payers').getAttribute('data-value'), '1')
  assert.equal(await $(page, 'data-paidCents').getAttribute('data-value'), String(firstOrder))
  assert.equal(await $(page, 'data-commissionCents').getAttribute('data-value'), String(expected))
  await both(page, 'pushdata-month')
  // Reload keeps the tab and period (they are in the URL).
  await page.reload()
  await page.locator('[data-testid=data-figures][data-period=month]').waitFor({ timeout: 15000 })

  // The invitee list: the name masked, what B paid, what A earned.
  await $(page, 'invite-tab-list').click()
  await page.waitForURL(/type=list/)
  const row = page.locator(`[data-testid=invitee][data-uid="${users.B.uid}"]`)
  await row.waitFor({ timeout: 15000 })
  const name = await row.locator('[data-testid=invitee-name]').innerText()
  assert.equal(name, `用**${stamp.slice(-1)}`)
  assert.equal(await cents(row.locator('[data-testid=invitee-paid]')), firstOrder)
  assert.equal(await cents(row.locator('[data-testid=invitee-commission]')), expected)
  await both(page, 'pushdata-list')

  // The commission list: one pending line, order number and name masked.
  await page.goto(server.base + '/mine/commissions')
  const line = page.locator('[data-testid=commission][data-state=pending]')
  await line.waitFor({ timeout: 15000 })
  assert.equal(await line.getAttribute('data-cents'), String(expected))
  assert.match(await line.locator('[data-testid=commission-order]').innerText(), /^订单 \S{4}\*\*\*\*\S{4} · ¥\d+\.\d{2} × \d+(\.\d+)?%$/)
  assert.match(await line.innerText(), /一级好友 · 用\*\*/)
  assert.match(await line.innerText(), /预计 .* 结算/)
  await both(page, 'commissions-pending')
  await $(page, 'commission-state-settled').click()
  await page.waitForURL(/state=settled/)
  await page.locator('[data-testid=commissions-page] [data-testid=state-empty]').waitFor({ timeout: 15000 })
})

let withdrawable
test('with settleDays 0 new commission is withdrawable at once; A withdraws and the operator approves', async () => {
  await op('POST', '/api/admin/commission/config', { ...config, settleDays: 0 })
  const B = users.B.page
  const second = await topUp(B, big)
  const third = await topUp(B, big)
  const settled = Math.floor((second * config.levels[0]) / 10000) + Math.floor((third * config.levels[0]) / 10000)
  const pending = Math.floor((firstOrder * config.levels[0]) / 10000)

  const page = users.A.page
  await page.goto(server.base + '/mine/usershouyimx')
  await page.locator(`[data-testid=income-withdrawable][data-cents="${settled}"]`).waitFor({ timeout: 15000 })
  assert.equal(await cents($(page, 'income-pending')), pending)
  assert.equal(await $(page, 'income-debt').count(), 0)
  await page.locator('[data-testid=sy-types] [data-type=commission]').waitFor()
  await both(page, 'shouyi')
  // The commission line of the month leads to the entries of that type.
  await page.locator('[data-testid=sy-types] [data-type=commission] a').click()
  await page.waitForURL(/\/mine\/userincomerecord\?type=commission&month=/)
  await page.locator('[data-testid=rec-entry][data-type=commission]').first().waitFor({ timeout: 15000 })
  assert.equal(await page.locator('[data-testid=rec-entry]:not([data-type=commission])').count(), 0)
  assert.equal(await $(page, 'rec-type-commission').getAttribute('aria-pressed'), 'true')
  assert.equal(await cents($(page, 'income-withdrawable')), settled)
  await both(page, 'incomerecord-commission')
  await $(page, 'rec-type-creator').click()
  await page.waitForURL(/type=creator/)
  await page.locator('[data-testid=rec-ledger] [data-testid=state-empty]').waitFor({ timeout: 15000 })

  await page.goto(server.base + '/mine/commissions?state=settled')
  await page.locator('[data-testid=commission][data-state=settled]').nth(1).waitFor({ timeout: 15000 })
  assert.equal(await page.locator('[data-testid=commission]:not([data-state=settled])').count(), 0)
  assert.equal(await cents($(page, 'commissions-settled')), settled)
  await both(page, 'commissions-settled')

  // Withdraw it: a USDT address (through the API, as withdraw.test.mjs
  // covers the form), then the withdraw page with the password sheet.
  await as('A', 'POST', '/api/app/mine/txnact/bank/add', { actType: 2, network: 'TRC20', address: TRC20, passWord: PASSWORD })
  withdrawable = settled
  const amount = Math.floor(settled / 100) * 100
  await page.goto(server.base + '/mine/withdraw')
  await $(page, 'wd-form').waitFor({ timeout: 15000 })
  await $(page, 'wd-type-2').click()
  await $(page, 'wd-account').first().click()
  await $(page, 'wd-amount').fill(String(amount / 100))
  await $(page, 'wd-submit').click()
  await $(page, 'wd-sheet').waitFor()
  await $(page, 'wd-password').fill(PASSWORD)
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/withdraw'))
  await $(page, 'wd-confirm').click()
  assert.equal((await sent).status(), 200)
  await page.waitForURL(/\/mine\/withdraw\/detail$/, { timeout: 15000 })
  const row = page.locator('[data-testid=wd-order][data-status=pending]')
  await row.waitFor({ timeout: 15000 })
  const orderNo = await row.getAttribute('data-order')
  await op('POST', '/api/admin/withdrawals/approve', { orderNo })
  await page.locator(`[data-testid=wd-order][data-order="${orderNo}"][data-status=paid]`).waitFor({ timeout: 15000 })
  await page.goto(server.base + '/mine/usershouyimx')
  await page.locator(`[data-testid=income-withdrawable][data-cents="${settled - amount}"]`).waitFor({ timeout: 15000 })
})

test('C, an approved creator, sells a paid post to D and sees the earning', async () => {
  const C = await newPhone('C')
  await C.goto(server.base + '/')
  await C.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(C) // home shows while the guest signs in
  await register('C', C)
  // Not a creator yet: the list points to the application.
  await C.goto(server.base + '/mine/creatorearnings')
  await $(C, 'earnings-apply').waitFor({ timeout: 15000 })
  await both(C, 'creator-none')
  await C.goto(server.base + '/mine/settled')
  await $(C, 'st-name').fill('阿狸工作室')
  await $(C, 'st-contact').fill('tg@ali')
  await $(C, 'st-intro').fill('专注原创图文三年，每周更新两次。')
  await $(C, 'st-submit').click()
  await C.locator('[data-testid=settled-state][data-state=pending]').waitFor({ timeout: 15000 })
  const apps = await op('GET', '/api/admin/settled?status=pending')
  const mine = apps.list.find((a) => a.uid === users.C.uid)
  await op('POST', '/api/admin/settled/approve', { id: mine.id })
  const price = 50
  const post = await as('C', 'POST', '/api/app/community/post', {
    kind: 'article', title: `付费攻略 ${stamp}`, html: '<p>' + '干货内容'.repeat(80) + '</p>', coins: price, clientID: `earn-${stamp}`,
  })

  const D = await newPhone('D')
  await D.goto(server.base + '/')
  await D.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(D) // home shows while the guest signs in
  await register('D', D)
  const pkgs = await as('D', 'GET', '/api/app/mine/currencys?type=1')
  const enough = [...pkgs].sort((a, b) => a.price - b.price).find((p) => p.coins + p.bonus >= price)
  await topUp(D, enough)
  await D.goto(`${server.base}/cdetail/${post.id}`)
  await $(D, 'paywall-buy').click()
  const bought = D.waitForResponse((r) => r.url().endsWith('/api/app/community/post/buy'))
  await $(D, 'buy-confirm').click()
  assert.equal((await bought).status(), 200)
  await $(D, 'post-article').waitFor({ timeout: 15000 })

  // The earning: floor(coins x share x 100 / (10000 x rate)), rate = coins per ¥1.
  const w = await as('C', 'GET', '/api/app/mine/wallet')
  const share = config.creatorShareBps
  const earned = Math.floor((price * share * 100) / (10000 * w.exchangeRate))
  assert.ok(earned > 0)
  await C.goto(server.base + '/myhome')
  await $(C, 'creator-card').waitFor({ timeout: 15000 })
  // settleDays is 0 since the last test: the sale settled at once.
  assert.equal(await cents($(C, 'creator-settled')), earned)
  assert.equal(await cents($(C, 'creator-pending')), 0)
  assert.match(await $(C, 'creator-earnings').innerText(), /1 笔/)
  await both(C, 'myhome-creator')
  await $(C, 'creator-earnings').click()
  await C.waitForURL(/\/mine\/creatorearnings$/)
  const line = C.locator('[data-testid=earning][data-kind=post]')
  await line.waitFor({ timeout: 15000 })
  assert.equal(await line.getAttribute('data-cents'), String(earned))
  assert.equal(await line.getAttribute('data-state'), 'settled')
  assert.match(await line.innerText(), new RegExp(`付费攻略 ${stamp}`))
  assert.equal(await line.locator('a').getAttribute('href'), `/cdetail/${post.id}`)
  await both(C, 'creatorearnings')
  // It is C's income: withdrawable on the income details, under 创作收益.
  await C.goto(server.base + '/mine/userincomerecord?type=creator')
  await C.locator('[data-testid=rec-entry][data-type=creator]').waitFor({ timeout: 15000 })
  assert.equal(await cents($(C, 'income-withdrawable')), earned)
})

test('A applies as a promoter, the operator approves, and A sees the promoter rates', async () => {
  const page = users.A.page
  await page.goto(server.base + '/mine/usershareshenqing')
  await $(page, 'promoter-form').waitFor({ timeout: 15000 })
  assert.equal(await $(page, 'promoter-state').getAttribute('data-state'), 'none')
  assert.equal(await $(page, 'promoter-rates').getAttribute('data-tier'), 'member')
  const pct = (bps) => `${Math.floor(bps / 100)}${bps % 100 ? '.' + String(bps % 100).padStart(2, '0').replace(/0+$/, '') : ''}%`
  for (let i = 0; i < config.levels.length; i++) {
    const row = page.locator(`[data-testid=promoter-rate][data-level="${i + 1}"]`)
    assert.equal(await row.locator('[data-testid=rate-member]').innerText(), pct(config.levels[i]))
    assert.equal(await row.locator('[data-testid=rate-promoter]').innerText(), pct(config.promoterLevels[i]))
  }
  assert.match(await $(page, 'promoter-settle').innerText(), /立即结算/)
  await both(page, 'promoter-none')

  // The form says what is wrong before sending: nothing is sent.
  let sentEarly = false
  const spy = (r) => { if (r.url().endsWith('/api/app/mine/promoter/apply')) sentEarly = true }
  page.on('request', spy)
  await $(page, 'promoter-contact').fill('ab')
  await $(page, 'promoter-intro').fill('x'.repeat(501))
  await $(page, 'promoter-submit').click()
  await $(page, 'promoter-channel-error').waitFor()
  await $(page, 'promoter-contact-error').waitFor()
  await $(page, 'promoter-intro-error').waitFor()
  assert.equal(await $(page, 'promoter-intro-count').innerText(), '501/500')
  assert.equal(sentEarly, false)
  page.off('request', spy)
  await both(page, 'promoter-invalid')

  await $(page, 'promoter-channel').fill('抖音')
  await $(page, 'promoter-contact').fill('tg@promoter_a')
  await $(page, 'promoter-intro').fill('抖音账号 3 万粉丝，\n每周直播两次。')
  const sent = page.waitForResponse((r) => r.url().endsWith('/api/app/mine/promoter/apply'))
  await $(page, 'promoter-submit').click()
  assert.equal((await sent).status(), 200)
  await page.locator('[data-testid=promoter-state][data-state=pending]').waitFor({ timeout: 15000 })
  assert.equal(await $(page, 'promoter-form').count(), 0)
  await both(page, 'promoter-pending')
  // Applying again while pending is refused with the server's words.
  await assert.rejects(as('A', 'POST', '/api/app/mine/promoter/apply', { channel: '抖音', contact: 'tg@a', intro: '' }), /你的推广员申请正在审核中/)

  const list = await op('GET', '/api/admin/promoters?state=pending')
  const app = list.list.find((a) => a.uid === users.A.uid)
  assert.equal(app.channel, '抖音')
  const decided = await op('POST', '/api/admin/promoters/decide', { id: app.id, approve: true })
  assert.equal(decided.changed, true)
  // No reload: the decision's notice refetches the page.
  await page.locator('[data-testid=promoter-state][data-state=approved]').waitFor({ timeout: 20000 })
  assert.equal(await $(page, 'promoter-tier').getAttribute('data-tier'), 'promoter')
  assert.equal(await $(page, 'promoter-rates').getAttribute('data-tier'), 'promoter')
  await both(page, 'promoter-approved')
  const p = await as('A', 'GET', '/api/app/mine/promoter')
  assert.deepEqual(p.rates, config.promoterLevels)
  assert.ok(withdrawable > 0)
  assert.deepEqual(faults, [])
})
