// The console's sections (content, people, moderation, money, finance, growth, stats, backups) in Chromium against
// one real server: each section's file under e2e/console/ adds its tests to
// this one run, so the sections share a server and a browser (make test's
// time). Operators of every role are made from the shell before the server
// starts; ctx.open(role) gives a page already signed in to the console as
// that role (the token of a real password + TOTP sign-in, kept where the
// console keeps its session), with every page error, 5xx answer and CSP
// refusal collected in problems.
import { test, before, after } from 'node:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, devices } from 'playwright-core'
import { startServer, chromeFlags, consoleToken } from './harness.mjs'
import content from './console/content.mjs'
import catalog from './console/catalog.mjs'
import people from './console/people.mjs'
import moderation from './console/moderation.mjs'
import finance from './console/finance.mjs'
import growth from './console/growth.mjs'
import money from './console/money.mjs'
import backups from './console/backups.mjs'
import stats from './console/stats.mjs'

const PASSWORD = 'Section-pass-1'
export const OPERATORS = {
  owner: { account: 'sec_owner', password: PASSWORD },
  content: { account: 'sec_content', password: PASSWORD },
  moderator: { account: 'sec_mod', password: PASSWORD },
  support: { account: 'sec_support', password: PASSWORD },
  finance: { account: 'sec_finance', password: PASSWORD },
}

const ctx = {
  server: null,
  browser: null,
  // token signs role's operator in (or steps its session up) and returns the console token.
  token: (role) => consoleToken(ctx.server.base, OPERATORS[role]),
  // api calls the server as role's operator (role null: no token; a string
  // that is not a role: that token as it is); answers { status, env }.
  async api(role, method, path, body) {
    const headers = { 'X-App-Client': 'devID=e2econsolesections01;ver=1.1.3;dev=pc;h5=1' }
    if (role) headers.Authorization = `Bearer ${OPERATORS[role] ? await ctx.token(role) : role}`
    let payload
    if (body instanceof FormData) payload = body
    else if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      payload = JSON.stringify(body)
    }
    const r = await fetch(ctx.server.base + path, { method, headers, body: payload })
    return { status: r.status, env: await r.json().catch(() => null) }
  },
  // open gives { context, page, problems } signed in as role's operator, on
  // a laptop (1280x800) or, with phone: true, an iPhone 13.
  async open(role, { phone = false } = {}) {
    const token = await ctx.token(role)
    const context = await ctx.browser.newContext({
      ...(phone ? devices['iPhone 13'] : { viewport: { width: 1280, height: 800 } }),
      locale: 'zh-CN',
      timezoneId: 'Asia/Shanghai',
      acceptDownloads: true,
    })
    await context.addInitScript((t) => {
      if (!localStorage.getItem('prima_console_session')) localStorage.setItem('prima_console_session', JSON.stringify({ token: t, expiresAt: Date.now() / 1000 + 3600 }))
      document.addEventListener('securitypolicyviolation', (e) => console.warn(`csp-violation ${e.effectiveDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`))
    }, token)
    const page = await context.newPage()
    const problems = []
    page.on('pageerror', (e) => problems.push('pageerror ' + e))
    page.on('console', (m) => {
      if (m.text().startsWith('csp-violation')) problems.push(m.text())
    })
    page.on('response', (r) => {
      if (r.status() >= 500) problems.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    return { context, page, problems }
  },
  $: (page, id) => page.locator(`[data-testid="${id}"]`),
}

before(async () => {
  // Scheduled backups into a folder of their own (the backups page reads it).
  ctx.backups = mkdtempSync(join(tmpdir(), 'prima-backups-'))
  ctx.server = await startServer({ PRIMA_BACKUP_TO: ctx.backups }, {
    setup: (run) => {
      for (const [role, o] of Object.entries(OPERATORS)) run(['admin', 'create', '-account', o.account, '-role', role], o.password + '\n')
    },
  })
  ctx.browser = await chromium.launch({ executablePath: process.env.CHROME_PATH || '/usr/bin/chromium', args: chromeFlags })
})

after(async () => {
  await ctx.browser?.close()
  await ctx.server?.stop()
  if (ctx.backups) rmSync(ctx.backups, { recursive: true, force: true })
})

content(test, ctx)
catalog(test, ctx)
people(test, ctx)
moderation(test, ctx)
finance(test, ctx)
growth(test, ctx)
money(test, ctx)
backups(test, ctx)
stats(test, ctx)
