// Where the main thread's time goes during one short-video swipe under a
// 4x CPU slowdown: a CDP CPU profile from the first touch to the end of the
// snap, summed by function (self time), for each of N swipes.
//
//   node profile-swipe.mjs [--swipes 3]
import { parseArgs } from 'node:util'
import { launchPhone, startServer, signedIn } from '../../e2e/harness.mjs'
import { attachClips, operatorSetup, shortFeedIds } from '../../e2e/media.mjs'

const { values: opts } = parseArgs({ options: { swipes: { type: 'string', default: '3' } } })
const N = Number(opts.swipes)
const server = await startServer({}, { setup: operatorSetup })
const phone = await launchPhone()
try {
  const { ids } = await shortFeedIds(server.base, N + 1)
  await attachClips(server.base, ids)
  const { page, context } = phone
  const cdp = await context.newCDPSession(page)
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // the page shows while the guest signs in
  await page.goto(server.base + '/shortvideo')
  await page.waitForFunction(() => document.querySelector('[data-testid=short-slide][data-role=play] video')?.currentTime > 0, null, { timeout: 20000 })
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 })
  const total = new Map()
  for (let i = 0; i < N; i++) {
    await page.waitForTimeout(1500)
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 })
    await page.evaluate(() => {
      window.__snapEnd = null
      const track = document.querySelector('[data-testid=short-feed] [role=region] > div')
      track.addEventListener('transitionend', () => (window.__snapEnd = performance.now()), { once: true })
    })
    await cdp.send('Profiler.start')
    const x = 190
    const pts = [520, 470, 400, 330, 260, 200]
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y: pts[0] }] })
    for (const y of pts.slice(1)) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] })
      await page.waitForTimeout(16)
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    await page.waitForFunction(() => window.__snapEnd != null, null, { timeout: 5000, polling: 100 })
    const { profile } = await cdp.send('Profiler.stop')
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    // Self time per node from the samples.
    const dt = new Map()
    profile.samples.forEach((id, k) => dt.set(id, (dt.get(id) ?? 0) + (profile.timeDeltas[k + 1] ?? 0)))
    const parent = new Map()
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n)
    const label = (n) => `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').pop()}:${n.callFrame.lineNumber}:${n.callFrame.columnNumber}`
    for (const n of profile.nodes) {
      if (process.env.STACKS && ['getBoundingClientRect', 'requestAnimationFrame', 'send', 'fetch', 'setAttribute'].includes(n.callFrame.functionName) && (dt.get(n.id) ?? 0) > 500) {
        const chain = []
        for (let p = parent.get(n.id); p && chain.length < 6; p = parent.get(p.id)) chain.push(label(p))
        console.log(`${((dt.get(n.id) ?? 0) / 1000).toFixed(1)} ms ${n.callFrame.functionName} <- ${chain.join(' <- ')}`)
      }
    }
    for (const n of profile.nodes) {
      const f = n.callFrame
      const name = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`
      total.set(name, (total.get(name) ?? 0) + (dt.get(n.id) ?? 0) / 1000)
    }
  }
  const top = [...total].filter(([n]) => !n.startsWith('(idle)') && !n.startsWith('(program)')).sort((a, b) => b[1] - a[1]).slice(0, 25)
  console.log(`self time over ${N} swipes at 4x (ms):`)
  for (const [n, ms] of top) console.log(`${ms.toFixed(1).padStart(8)}  ${n}`)
  console.log(`(program) ${(total.get('(program) :-1') ?? 0).toFixed(1)} ms, (idle) ${(total.get('(idle) :-1') ?? 0).toFixed(1)} ms, (garbage collector) ${(total.get('(garbage collector) :-1') ?? 0).toFixed(1)} ms`)
} finally {
  await phone.browser.close()
  await server.stop()
}
