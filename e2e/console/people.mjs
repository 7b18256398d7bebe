// The console's people section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators): support finds a
// user by account, bans them (their token and their sign-in are refused),
// lifts the ban; a moderator mutes them (a comment is refused); support
// approves a creator application and replies to feedback; each change has
// its audit row. One phone-size look at the user page.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

export default function register(test, ctx) {
  const { $ } = ctx
  const stamp = Date.now().toString(36).slice(-5)
  const users = {}

  // user makes a user through the phone API: { token, uid }.
  async function user(account) {
    const r = await ctx.api(null, 'POST', '/api/app/mine/register', { account, passWord: 'secret12' })
    assert.equal(r.status, 200, JSON.stringify(r.env))
    return { account, token: r.env.data.token, uid: r.env.data.user.uid }
  }
  const login = (account) => ctx.api(null, 'POST', '/api/app/mine/login/h5', { account, passWord: 'secret12', sysType: 'pc' })
  // audited: the audit rows of action about user uid.
  async function audited(action, target) {
    const r = await ctx.api('owner', 'GET', `/api/admin/audit?action=${action}&target=${encodeURIComponent(target)}`)
    assert.equal(r.status, 200, JSON.stringify(r.env))
    return r.env.data.list
  }
  // The component library writes two <style> elements at run time (a
  // table's scrollbar probe, a dialog's scroll lock) which the CSP refuses,
  // harmlessly (see console.test.mjs); anything else is a problem.
  const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))
  const confirmPop = (page) => page.locator('.ant-popconfirm .ant-popconfirm-buttons .ant-btn-primary').click()

  test('people: support finds a user by account, bans them (token and sign-in refused), lifts it; audit rows', async () => {
    users.a = await user(`e2e_ppl_a${stamp}`)
    users.b = await user(`e2e_ppl_b${stamp}`)
    const { context, page, problems } = await ctx.open('support')
    try {
      await page.goto(ctx.server.base + '/admin/people')
      await $(page, 'people-query').locator('input').fill(users.a.account.toUpperCase())
      await $(page, 'people-query').locator('input').press('Enter')
      await $(page, `people-open-${users.a.uid}`).click()
      const drawer = $(page, 'user-drawer')
      await drawer.getByText(users.a.account, { exact: true }).waitFor()
      assert.equal(await $(page, 'user-sessions').locator('tbody tr.ant-table-row').count(), 1)

      // Ban for a day with a reason.
      await $(page, 'user-ban').click()
      await $(page, 'ban-reason').fill('多次发布违规广告')
      await shot(page, 'console-people-ban-dialog')
      await $(page, 'ban-submit').click()
      await page.waitForFunction(() => document.querySelector('[data-testid="user-ban-state"]')?.textContent?.includes('封禁至'))
      await shot(page, 'console-people-banned')

      // The user's token: every write (and read) 403 naming the ban; sign-in refused.
      const w = await ctx.api(users.a.token, 'POST', '/api/app/mine/info', { bio: 'x' })
      assert.equal(w.status, 403)
      assert.match(w.env.tip, /账号已被封禁/)
      const l = await login(users.a.account)
      assert.equal(l.status, 403)
      assert.match(l.env.tip, /多次发布违规广告/)
      const bans = await audited('user.ban', `user:${users.a.uid}`)
      assert.equal(bans.length, 1)
      assert.equal(bans[0].actorAccount, 'sec_support')

      // Lift: sign-in works again.
      await $(page, 'user-unban').click()
      await confirmPop(page)
      await page.waitForFunction(() => document.querySelector('[data-testid="user-ban-state"]')?.textContent?.includes('未封禁'))
      assert.equal((await login(users.a.account)).status, 200)
      assert.equal((await audited('user.unban', `user:${users.a.uid}`)).length, 1)
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })

  test('people: a moderator mutes a user from their page; their comment is refused; audit row', async () => {
    const { context, page, problems } = await ctx.open('moderator')
    try {
      await page.goto(ctx.server.base + `/admin/people?q=${users.a.account}&uid=${users.a.uid}`)
      await $(page, 'user-mute').click()
      await $(page, 'mute-reason').fill('辱骂其他用户')
      await $(page, 'mute-submit').click()
      await page.waitForFunction(() => document.querySelector('[data-testid="user-mute-state"]')?.textContent?.includes('禁言至'))
      // A moderator does not read money.
      assert.equal(await $(page, 'user-balances').count(), 0)

      const post = await ctx.api(users.b.token, 'POST', '/api/app/community/post', { kind: 'article', title: '周末去爬山', html: '<p>山顶的风景很好。</p>' })
      assert.equal(post.status, 200, JSON.stringify(post.env))
      const fresh = (await login(users.a.account)).env.data.token
      const c = await ctx.api(fresh, 'POST', '/api/app/community/comment', { postID: post.env.data.id, text: '你说得不对' })
      assert.equal(c.status, 403)
      assert.match(c.env.tip, /禁言/)
      const m = await ctx.api(fresh, 'POST', '/api/app/message/send', { uid: users.b.uid, kind: 'text', text: '在吗', clientId: 'e2e-ppl-1' })
      assert.equal(m.status, 403)
      const mutes = await audited('user.mute', `user:${users.a.uid}`)
      assert.equal(mutes.length, 1)
      assert.equal(mutes[0].actorAccount, 'sec_mod')
      // Feedback is support's: not in a moderator's menu, and its address says so.
      assert.ok((await page.locator('.ant-menu-item[data-menu-id$="/people"]').count()) > 0, 'the menu lists the users page')
      assert.equal(await page.locator('.ant-menu-item[data-menu-id$="/people/feedback"]').count(), 0)
      await page.goto(ctx.server.base + '/admin/people/feedback')
      await $(page, 'page-forbidden').waitFor()
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })

  test('people: support approves a creator application and replies to feedback; audit rows', async () => {
    const app = await ctx.api(users.b.token, 'POST', '/api/app/mine/settled', { name: '小B工作室', contact: 'wx_b12345', intro: '拍摄城市风光短片，十年经验。', category: 'video' })
    assert.equal(app.status, 200, JSON.stringify(app.env))
    const fb = await ctx.api(users.b.token, 'POST', '/api/app/mine/feedback', { content: '晚上播放有时卡顿，请看看线路。', contact: '' })
    assert.equal(fb.status, 200, JSON.stringify(fb.env))
    const { context, page, problems } = await ctx.open('support')
    try {
      await page.goto(ctx.server.base + '/admin/people/applications')
      const list = await ctx.api('support', 'GET', '/api/admin/settled?status=pending')
      const id = list.env.data.list.find((a) => a.uid === users.b.uid).id
      await $(page, `app-approve-${id}`).click()
      await confirmPop(page)
      await $(page, `app-approve-${id}`).waitFor({ state: 'detached' })
      assert.equal((await audited('settled.approve', `creator_application:${id}`)).length, 1)

      await page.goto(ctx.server.base + '/admin/people/feedback')
      const fbs = await ctx.api('support', 'GET', '/api/admin/feedback?status=open')
      const fid = fbs.env.data.list.find((f) => f.uid === users.b.uid).id
      await $(page, `fb-reply-${fid}`).click()
      await $(page, 'fb-reply-text').fill('已为你切换到更快的线路，请重试。')
      await $(page, 'fb-reply-submit').click()
      await $(page, `fb-reply-${fid}`).waitFor({ state: 'detached' }) // the open list no longer holds it
      assert.equal((await audited('feedback.reply', `feedback:${fid}`)).length, 1)
      await page.locator('.ant-segmented-item').filter({ hasText: '已回复' }).click()
      await page.getByText('已为你切换到更快的线路', { exact: false }).first().waitFor()
      await shot(page, 'console-people-feedback')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })

  test('people: the user page on a phone', async () => {
    const { context, page, problems } = await ctx.open('support', { phone: true })
    try {
      await page.goto(ctx.server.base + `/admin/people?q=${users.a.account}&uid=${users.a.uid}`)
      await $(page, 'user-mute-state').waitFor()
      const box = await $(page, 'user-drawer').locator('.ant-drawer-content-wrapper').boundingBox().catch(() => null)
      if (box) assert.ok(box.width >= 380, `drawer ${box.width}px wide on a phone`)
      await shot(page, 'console-people-phone')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })
}
