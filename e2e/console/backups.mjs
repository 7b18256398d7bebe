// 运维 → 备份 in Chromium (run by console-sections.test.mjs, whose server has
// PRIMA_BACKUP_TO set to a temporary folder, so the scheduled backup runs
// at its start). As the owner on a laptop: the place and schedule, the
// scheduled backup listed with its database and media, 立即备份 queues a
// job (one audit row) that shows under the latest runs; the finance
// operator has no 运维 entry and the page says it is not theirs.
import assert from 'node:assert/strict'
import { shot } from '../harness.mjs'

const real = (problems) => problems.filter((p) => !/^csp-violation style-src-elem inline .*\/admin\/assets\/[\w-]+\.js:\d+$/.test(p))

export default function register(test, ctx) {
  test('backups: the owner sees the scheduled backup and backs up now; finance does not see the page', async () => {
    const before = (await ctx.api('owner', 'GET', '/api/admin/audit?action=backup.run')).env.data.list.length
    const { context, page, problems } = await ctx.open('owner')
    try {
      await page.goto(ctx.server.base + '/admin/backups')
      await ctx.$(page, 'backup-settings').waitFor({ timeout: 15000 })
      assert.match(await ctx.$(page, 'backup-settings').innerText(), /每 24 小时[\s\S]*最近 7 份/)
      // The scheduled backup of the server's start (a few seconds of work).
      const rows = ctx.$(page, 'backups-table').locator('tbody tr.ant-table-row')
      for (let i = 0; (await rows.count()) === 0; i++) {
        assert.ok(i < 60, 'the scheduled backup never appeared')
        await page.waitForTimeout(1000)
        await page.reload()
        await ctx.$(page, 'backup-settings').waitFor()
      }
      assert.match(await rows.first().innerText(), /prima-\d{8}T\d{6}\.\d{3}Z[\s\S]*sqlite/)
      const runs = ctx.$(page, 'backup-runs').locator('tbody tr.ant-table-row')
      const runsBefore = await runs.count()
      await ctx.$(page, 'backup-now').click()
      // The new job shows under the latest runs (the list refetches after the call).
      await page.waitForFunction(([n]) => document.querySelectorAll('[data-testid="backup-runs"] tbody tr.ant-table-row').length > n, [runsBefore], { timeout: 15000 })
      const after = (await ctx.api('owner', 'GET', '/api/admin/audit?action=backup.run')).env.data.list.length
      assert.equal(after, before + 1)
      await shot(page, 'console-backups')
      assert.deepEqual(real(problems), [])
    } finally {
      await context.close()
    }

    const fin = await ctx.open('finance')
    try {
      await fin.page.goto(ctx.server.base + '/admin/backups')
      await fin.page.getByText('运维').count().then((n) => assert.equal(n, 0, 'finance sees the 运维 menu'))
      assert.equal(await ctx.$(fin.page, 'backup-now').count(), 0)
      assert.equal((await ctx.api('finance', 'GET', '/api/admin/backups')).status, 403)
    } finally {
      await fin.context.close()
    }
  })
}
