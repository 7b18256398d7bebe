// The console's moderation section in Chromium (run by console-sections.test.mjs,
// which owns the server, the browser and the operators). As the moderator on a
// laptop: review is turned on, a user (made with the phone API) publishes three
// articles; one is approved in the queue, the other two rejected together with
// a reason; a blocked word is added in the editor and the user's comment that
// holds its full-width form is refused with the word named; each change has its
// audit row. Then, at phone size, a message report dismissed on the reports page.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

const stamp = Date.now().toString(36).slice(-6)
const REASON = '内容与社区主题无关'

// real drops what the console's own e2e (console.test.mjs) accepts: the
// component library's two run-time <style> elements (a table's scrollbar
// probe, a dialog's scroll lock), refused harmlessly by the CSP. A script or
// a style attribute refused stays a problem.
const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))

export default function register(test, ctx) {
  // data unwraps an answer that must be 200.
  const data = (r, what) => {
    assert.equal(r.status, 200, `${what}: ${r.status} ${JSON.stringify(r.env)}`)
    return r.env.data
  }
  const audit = async (action) => data(await ctx.api('owner', 'GET', `/api/admin/audit?action=${action}`), 'audit ' + action).list

  test('moderation: the review queue (one approved, two rejected in bulk) and a blocked word, on a laptop', async () => {
    data(await ctx.api('moderator', 'POST', '/api/admin/community/settings', { review: true }), 'review on')
    const user = data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: 'modu' + stamp, passWord: 'secret12' }), 'register').token
    const ids = []
    for (const title of ['周末去爬山', '随手拍的街景', '加我领福利']) {
      const p = data(await ctx.api(user, 'POST', '/api/app/community/post', { kind: 'article', title: title + stamp, html: `<p>${title}的正文</p>` }), 'post')
      assert.equal(p.state, 'pending')
      ids.push(p.id)
    }
    const [ok, bad1, bad2] = ids
    const { context, page, problems } = await ctx.open('moderator')
    try {
      await page.goto(ctx.server.base + '/admin/moderation/queue')
      await ctx.$(page, `mod-approve-${ok}`).waitFor({ timeout: 15000 })
      await ctx.$(page, `mod-approve-${ok}`).click()
      await page.getByText('已通过 1 个帖子').waitFor()
      await page.locator(`tr[data-row-key="${ok}"]`).waitFor({ state: 'detached' })
      for (const id of [bad1, bad2]) await page.locator(`tr[data-row-key="${id}"] input[type=checkbox]`).check()
      await page.getByText('驳回所选（2）').waitFor()
      await shot(page, 'console-moderation-queue')
      await ctx.$(page, 'mod-bulk-reject').click()
      await ctx.$(page, 'mod-reason-ok').click() // no reason yet: the form says so
      await page.getByText('请填写原因').waitFor()
      await ctx.$(page, 'mod-reason').fill(REASON)
      await ctx.$(page, 'mod-reason-ok').click()
      await page.getByText('已驳回 2 个帖子').waitFor()
      await page.getByText('没有待审核的帖子').waitFor()

      const states = {}
      for (const state of ['published', 'rejected']) {
        for (const p of data(await ctx.api('moderator', 'GET', `/api/admin/community/posts?state=${state}&pageSize=50`), 'posts').list) states[p.id] = [p.state, p.reason ?? '']
      }
      assert.deepEqual([states[ok], states[bad1], states[bad2]], [['published', ''], ['rejected', REASON], ['rejected', REASON]])
      assert.ok((await audit('post.approve')).some((r) => r.target === `post:${ok}` && r.actorAccount === 'sec_mod'))
      const rejects = (await audit('post.reject')).filter((r) => [`post:${bad1}`, `post:${bad2}`].includes(r.target))
      assert.equal(rejects.length, 2)
      assert.equal(rejects[0].after.reason, REASON)

      // The blocked-words editor: a word per line, saved; the user's
      // comment with its full-width form is refused and stores nothing.
      await page.goto(ctx.server.base + '/admin/moderation/words')
      await ctx.$(page, 'mod-words').waitFor({ timeout: 15000 })
      await ctx.$(page, 'mod-words').fill('赌博网站\nSpamWord' + stamp + '\n' + '长'.repeat(33))
      await ctx.$(page, 'mod-words-problem').waitFor() // 33 characters: refused in the browser
      assert.ok(await ctx.$(page, 'mod-words-save').isDisabled())
      await ctx.$(page, 'mod-words').fill('赌博网站\nSpamWord' + stamp + '\n')
      await ctx.$(page, 'mod-words-save').click()
      await page.getByText('违禁词已保存（2 个）').waitFor()
      const fullWidth = ('ｓｐａｍｗｏｒｄ' + stamp).replace(/[0-9a-z]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0))
      const refused = await ctx.api(user, 'POST', '/api/app/community/comment', { postID: ok, text: '看看 ' + fullWidth + ' 吧' })
      assert.equal(refused.status, 422, JSON.stringify(refused.env))
      assert.equal(refused.env.tip, `内容包含违禁词「SpamWord${stamp}」，请修改后再发送`)
      const comments = data(await ctx.api('moderator', 'GET', `/api/admin/community/comments?postID=${ok}`), 'comments').list
      assert.equal(comments.length, 0)
      const words = (await audit('moderation.words')).filter((r) => r.actorAccount === 'sec_mod')
      assert.ok(words.length >= 1 && words[0].after.added.includes('SpamWord' + stamp), JSON.stringify(words[0]))
      assert.deepEqual(real(problems), [])
    } finally {
      // Leave the shared server as it was for the other sections.
      await ctx.api('moderator', 'POST', '/api/admin/moderation/words', { words: [] })
      await ctx.api('moderator', 'POST', '/api/admin/community/settings', { review: false })
      await context.close()
    }
  })

  test('moderation: a message report dismissed on the reports page at phone size', async () => {
    const a = data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: 'modr' + stamp, passWord: 'secret12' }), 'register')
    const b = data(await ctx.api(null, 'POST', '/api/app/mine/register', { account: 'mods' + stamp, passWord: 'secret12' }), 'register')
    data(await ctx.api(a.token, 'POST', '/api/app/message/report', { uid: b.user.uid, reason: '发广告骚扰' + stamp }), 'report')
    const { context, page, problems } = await ctx.open('moderator', { phone: true })
    try {
      await page.goto(ctx.server.base + '/admin/moderation/reports')
      await ctx.$(page, 'mod-post-reports').waitFor({ timeout: 15000 })
      await page.getByRole('tab', { name: '私信' }).click()
      await page.getByText('发广告骚扰' + stamp).waitFor()
      await shot(page, 'console-moderation-phone')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      assert.ok(overflow <= 1, `the page is ${overflow}px wider than the phone`)
      const row = page.locator('tr', { hasText: '发广告骚扰' + stamp })
      await row.locator('[data-testid^="mod-message-dismiss-"]').click()
      await page.getByText('已处理 1 条举报').waitFor()
      await page.getByText('发广告骚扰' + stamp).waitFor({ state: 'detached' })
      const rows = await audit('message.report.resolve')
      assert.ok(rows.some((r) => r.actorAccount === 'sec_mod' && r.after.action === 'dismiss' && r.after.reportedUid === b.user.uid), JSON.stringify(rows))
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }
  })
}
