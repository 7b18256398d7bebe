// The operator console at /admin/, in Chromium against the real server, on a
// laptop (1280x800) and a phone (iPhone 13, 390x844). At each size an owner
// made from the shell (`prima admin create -role owner`) opens the console,
// is sent to sign in, binds an authenticator (the test computes the TOTP
// codes from the secret the page shows, RFC 6238 with node:crypto), saves
// the recovery codes, lands where it was going and finds its own sign-in in
// the audit log; creates an operator (the first password is shown once),
// changes its role after a step-up code, and finds that role change in the
// audit log with its before and after; looks a user up; signs out. A phone
// app user's token opens nothing: /api/admin answers 401 and the page goes
// to the sign-in page. No script or inline style of ours is refused by the
// console's CSP. Screens: login, enrolment, audit and users at both sizes.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { createHmac } from 'node:crypto'
import { execFileSync } from 'node:child_process'
import { chromium, devices } from 'playwright-core'
import { startServer, chromeFlags, shot, totp } from './harness.mjs'

const PASSWORD = 'Owner-pass-1'
const sizes = [
  { tag: 'laptop', owner: 'boss_l', context: { viewport: { width: 1280, height: 800 } } },
  { tag: 'phone', owner: 'boss_p', context: { ...devices['iPhone 13'] } },
]
let server, browser
// Operators the owners made in the console, with the first password shown once.
const made = []

before(async () => {
  server = await startServer({}, {
    setup: (run) => {
      for (const s of sizes) run(['admin', 'create', '-account', s.owner, '-role', 'owner'], PASSWORD + '\n')
    },
  })
  browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

// RFC 6238 (TOTP, SHA-1, 6 digits, 30 s) over RFC 4648 base32.
function base32(s) {
  const abc = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = 0
  let value = 0
  const out = []
  for (const c of s.replace(/[\s=]/g, '').toUpperCase()) {
    const v = abc.indexOf(c)
    if (v < 0) throw new Error('not base32: ' + c)
    value = (value << 5) | v
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

function hotp(key, counter, digits = 6) {
  const msg = Buffer.alloc(8)
  msg.writeBigUInt64BE(BigInt(counter))
  const h = createHmac('sha1', key).update(msg).digest()
  const o = h[h.length - 1] & 15
  return String((h.readUInt32BE(o) & 0x7fffffff) % 10 ** digits).padStart(digits, '0')
}

// The RFC's own vector: its SHA-1 key at T = 59 s gives 94287082 (8 digits).
test('the test TOTP matches RFC 6238', () => {
  assert.equal(hotp(Buffer.from('12345678901234567890'), Math.floor(59 / 30), 8), '94287082')
  assert.equal(hotp(base32('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'), 1, 8), '94287082')
  assert.equal(totp('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ', 59_000), '287082', "the harness's 6-digit codes agree")
})

// code gives a TOTP code for a time step not used before by this secret (a
// server refuses a code used once), waiting for the next step if needed.
const usedSteps = new Map()
async function code(secret) {
  for (;;) {
    const step = Math.floor(Date.now() / 30000)
    if ((usedSteps.get(secret) ?? -1) < step) {
      usedSteps.set(secret, step)
      return hotp(base32(secret), step)
    }
    await new Promise((r) => setTimeout(r, 30000 - (Date.now() % 30000) + 200))
  }
}

async function api(path, { token, method = 'GET', body } = {}) {
  const headers = { 'X-App-Client': 'devID=e2econsoleclient00001;ver=1.1.3;dev=pc;h5=1' }
  if (token) headers.Authorization = `Bearer ${token}`
  if (body) headers['Content-Type'] = 'application/json'
  const r = await fetch(server.base + path, { method, headers, body: body && JSON.stringify(body) })
  return { status: r.status, env: await r.json() }
}

async function open(size) {
  const context = await browser.newContext({ ...size.context, locale: 'zh-CN', timezoneId: 'Asia/Shanghai', acceptDownloads: true })
  const page = await context.newPage()
  const problems = []
  // Every CSP refusal, whatever it was.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => console.warn(`csp-violation ${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))
  })
  page.on('pageerror', (e) => problems.push('pageerror ' + e))
  page.on('console', (m) => {
    if (m.text().startsWith('csp-violation')) problems.push(m.text())
  })
  page.on('response', (r) => {
    if (r.status() >= 500) problems.push(`${r.status()} ${new URL(r.url()).pathname}`)
  })
  return { context, page, problems }
}

const $ = (page, id) => page.locator(`[data-testid="${id}"]`)

// stepUpIfAsked answers the step-up prompt when the server asks for one
// (a sign-in a few minutes old may still count as fresh).
async function stepUpIfAsked(page, secret, done) {
  const prompt = $(page, 'stepup-code')
  const first = await Promise.race([prompt.waitFor().then(() => 'prompt'), done.waitFor().then(() => 'done')])
  if (first === 'prompt') {
    await prompt.fill(await code(secret))
    await $(page, 'stepup-submit').click()
    await done.waitFor()
    return true
  }
  return false
}

for (const size of sizes) {
  test(`console on a ${size.tag}: enrol, sign in, audit, operators, people, sign out`, async () => {
    const { context, page, problems } = await open(size)
    try {
      // A page of the console without a session goes to the sign-in page and comes back after.
      await page.goto(server.base + '/admin/audit')
      await page.waitForURL(/\/admin\/login\?next=%2Faudit/)
      await $(page, 'login-account').waitFor()
      await shot(page, `console-login-${size.tag}`)

      // A wrong password says so, without telling which part was wrong.
      await $(page, 'login-account').fill(size.owner)
      await $(page, 'login-password').fill('not-the-password')
      await $(page, 'login-submit').click()
      await $(page, 'login-error').waitFor()
      assert.match(await $(page, 'login-error').innerText(), /账号、密码或验证码错误/)

      // The right password, no code yet: the enrolment.
      await $(page, 'login-password').fill(PASSWORD)
      await $(page, 'login-submit').click()
      await $(page, 'enrol-qr').waitFor()
      const secret = (await $(page, 'enrol-secret').innerText()).replace(/\s/g, '')
      assert.match(secret, /^[A-Z2-7]{16,}$/)
      assert.match(await $(page, 'enrol-qr').getAttribute('src'), /^data:image\/png;base64,/)
      await shot(page, `console-enrol-${size.tag}`)

      // A wrong code is refused on the spot; the right one binds it.
      await $(page, 'enrol-code').fill(String((Number(await code(secret)) + 1) % 1e6).padStart(6, '0'))
      await $(page, 'enrol-submit').click()
      await $(page, 'enrol-error').waitFor()
      await $(page, 'enrol-code').fill(await code(secret))
      await $(page, 'enrol-submit').click()
      await $(page, 'recovery-codes').waitFor()
      const codes = (await $(page, 'recovery-codes').innerText()).split(/\s+/).filter(Boolean)
      assert.equal(codes.length, 10)
      assert.equal(new Set(codes).size, 10)
      assert.ok(await $(page, 'recovery-continue').isDisabled(), 'the console opens only after "I saved them"')
      const download = page.waitForEvent('download')
      await $(page, 'recovery-download').click()
      assert.match((await download).suggestedFilename(), new RegExp(`prima-recovery-${size.owner}\\.txt`))
      await shot(page, `console-recovery-${size.tag}`)
      await $(page, 'recovery-saved').click()
      await $(page, 'recovery-continue').click()

      // Back where it was going: the audit log, with this sign-in in it.
      await page.waitForURL(/\/admin\/audit$/)
      await $(page, 'audit-table').locator('.ant-table-row').first().waitFor()
      const firstRows = await $(page, 'audit-table').innerText()
      assert.ok(firstRows.includes(size.owner), 'the audit log names the operator who signed in')
      await shot(page, `console-audit-${size.tag}`)

      // Make an operator: the step-up prompt (unless the sign-in still counts), then the password once.
      const editor = `ed_${size.tag}`
      await page.goto(server.base + '/admin/operators')
      await $(page, 'op-create').click()
      await $(page, 'op-account').fill(editor)
      await $(page, 'op-role').click()
      await page.locator('.ant-select-item-option[title="内容运营"]').click()
      await $(page, 'op-create-submit').click()
      await stepUpIfAsked(page, secret, $(page, 'op-password-value'))
      const firstPassword = (await $(page, 'op-password-value').innerText()).trim()
      assert.ok(firstPassword.length >= 8, 'a first password is shown')
      made.push({ account: editor, password: firstPassword })
      await $(page, 'op-password-close').click()
      await $(page, 'operators-table').getByText(editor, { exact: true }).first().waitFor()

      // Change its role; the audit log shows the change with its before and after.
      await $(page, `op-role-${editor}`).click()
      // On a loaded machine a click may land while the list is still
      // sliding in and choose nothing: choose until the button wakes.
      for (let i = 0; i < 3 && !(await $(page, 'op-role-submit').isEnabled()); i++) {
        await $(page, 'op-role-select').click()
        await page.locator('.ant-select-item-option[title="客服"]').click()
        await page.waitForTimeout(300)
      }
      await $(page, 'op-role-submit').click()
      await stepUpIfAsked(page, secret, page.locator('.ant-message-success'))
      await $(page, 'operators-table').locator('tr', { hasText: editor }).locator('[data-role="support"]').waitFor()

      await page.goto(server.base + '/admin/audit')
      await $(page, 'audit-table').locator('.ant-table-row').first().waitFor()
      const roleRow = $(page, 'audit-table').locator('.ant-table-row', { hasText: /role/ }).first()
      await roleRow.waitFor()
      await roleRow.click()
      await $(page, 'audit-diff').waitFor()
      const diff = await $(page, 'audit-diff').innerText()
      assert.match(diff, /content/)
      assert.match(diff, /support/)
      await shot(page, `console-audit-diff-${size.tag}`)
      await page.keyboard.press('Escape')

      // The CSV export of the same log.
      const csv = page.waitForEvent('download')
      await $(page, 'audit-export').click()
      assert.match((await csv).suggestedFilename(), /\.csv$/)

      // People: the demo user by account, in a drawer with its sessions;
      // on the laptop it is signed in on a phone first and signed out from here.
      const demo = size.tag === 'laptop' ? (await api('/api/app/mine/login/h5', { method: 'POST', body: { account: 'demo', passWord: 'demo123', sysType: 'ios' } })).env.data.token : null
      await page.goto(server.base + '/admin/people')
      await $(page, 'people-query').locator('input').fill('demo')
      await $(page, 'people-query').locator('input').press('Enter')
      await $(page, 'people-table').getByText('demo').first().waitFor()
      await $(page, 'people-table').locator('.ant-table-row').first().click()
      await $(page, 'user-sessions').waitFor()
      await shot(page, `console-users-${size.tag}`)
      if (demo) {
        assert.ok((await $(page, 'user-sessions').locator('tbody tr.ant-table-row').count()) >= 1)
        assert.equal((await api('/api/app/mine/info', { token: demo })).status, 200)
        await $(page, 'user-revoke').click()
        await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click()
        await page.locator('.ant-message-success').getByText(/已下线/).waitFor()
        assert.equal((await api('/api/app/mine/info', { token: demo })).status, 401, 'the user is signed out on their phone')
      }
      await page.keyboard.press('Escape')

      // 会话与密钥: a key issued on the server is listed, works, and stops working once revoked here.
      if (size.tag === 'laptop') {
        const key = execFileSync(server.bin, ['admin', 'key', '-account', size.owner, '-ttl', '24h'], { env: server.env, stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim()
        assert.equal((await api('/api/admin/session', { token: key })).status, 200)
        await page.goto(server.base + '/admin/security')
        await $(page, 'sessions-table').locator('.ant-table-row').first().waitFor()
        await page.getByRole('tab', { name: 'API 密钥' }).click()
        const row = $(page, 'keys-table').locator('.ant-table-row', { hasText: key.slice(0, 8) })
        await row.waitFor()
        await row.getByRole('button', { name: /吊\s*销/ }).click()
        await page.locator('.ant-popconfirm').getByRole('button', { name: /确\s*定|OK/ }).click()
        await row.getByText('已吊销').waitFor()
        assert.equal((await api('/api/admin/session', { token: key })).status, 401)
        await shot(page, `console-keys-${size.tag}`)
      }

      // Sign out: the session is gone on the server too.
      const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_console_session')).token)
      if (size.tag === 'phone') {
        await $(page, 'user-menu').click()
        await page.getByRole('menuitem', { name: /退出登录/ }).click()
      } else {
        await $(page, 'sign-out').click()
      }
      await page.waitForURL(/\/admin\/login/)
      assert.equal((await api('/api/admin/session', { token })).status, 401)

      // What the CSP refuses: never a script, never a style attribute. The
      // component library writes two <style> elements of its own at run time
      // (a probe of a table's scrollbar width, and the page's scroll lock
      // while a dialog is open); they are refused, harmlessly (default
      // scrollbars; the page behind a dialog can still scroll).
      const csp = problems.filter((p) => p.startsWith('csp-violation'))
      assert.deepEqual(csp.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p)), [], 'no script and no style attribute refused')
      assert.deepEqual(problems.filter((p) => !p.startsWith('csp-violation')), [])
    } finally {
      await context.close()
    }
  })
}

test('an operator made in the console signs in with its first password and sees only its role\'s sections', async () => {
  const op = made[0]
  assert.ok(op, 'the laptop test made an operator')
  const { context, page, problems } = await open(sizes[0])
  try {
    await page.goto(server.base + '/admin/')
    await $(page, 'login-account').fill(op.account)
    await $(page, 'login-password').fill(op.password)
    await $(page, 'login-submit').click()
    await $(page, 'enrol-qr').waitFor()
    const secret = (await $(page, 'enrol-secret').innerText()).replace(/\s/g, '')
    await $(page, 'enrol-code').fill(await code(secret))
    await $(page, 'enrol-submit').click()
    await $(page, 'recovery-saved').click()
    await $(page, 'recovery-continue').click()
    await $(page, 'dash-session').waitFor()
    // support: the overview, people and its own sessions; no audit, no operators.
    await $(page, 'operator').locator('[data-role="support"]').waitFor()
    const menu = await $(page, 'nav').innerText()
    assert.match(menu, /概览/)
    assert.match(menu, /用户/)
    assert.match(menu, /会话与密钥/)
    assert.doesNotMatch(menu, /审计日志|运营人员|内容/)
    // A page of another section, opened by its address: not allowed, and its call is refused too.
    await page.goto(server.base + '/admin/operators')
    await page.getByText('没有权限').first().waitFor()
    const token = await page.evaluate(() => JSON.parse(localStorage.getItem('prima_console_session')).token)
    assert.equal((await api('/api/admin/operators', { token })).status, 403)
    assert.deepEqual(problems.filter((p) => !p.startsWith('csp-violation')), [])
  } finally {
    await context.close()
  }
})

test("a phone app user's token opens nothing under /admin", async () => {
  const login = await api('/api/app/mine/login/h5', { method: 'POST', body: { account: 'demo', passWord: 'demo123', sysType: 'ios' } })
  assert.equal(login.env.code, 200)
  const token = login.env.data.token
  for (const path of ['/api/admin/session', '/api/admin/audit', '/api/admin/users?account=demo', '/api/admin/operators']) {
    const r = await api(path, { token })
    assert.equal(r.status, 401, `${path} with a phone-app token: ${r.status} ${JSON.stringify(r.env)}`)
  }
  // Even put where the console keeps its own session, the page goes to sign in.
  const { context, page } = await open(sizes[0])
  try {
    await page.goto(server.base + '/admin/login')
    await page.evaluate((t) => localStorage.setItem('prima_console_session', JSON.stringify({ token: t, expiresAt: '2999-01-01T00:00:00Z' })), token)
    await page.goto(server.base + '/admin/people')
    await page.waitForURL(/\/admin\/login\?next=%2Fpeople/)
    await $(page, 'login-account').waitFor()
    assert.equal(await page.evaluate(() => localStorage.getItem('prima_console_session')), null, 'the refused token is forgotten')
  } finally {
    await context.close()
  }
})
