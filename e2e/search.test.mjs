// Search, as an iPhone 13 (Chromium) against the real server. The seed
// holds 猫 in short videos, posts, a topic and a user's name, but no 北京
// and no Latin word in a title, so the operator adds videos and two writers
// publish articles that hold them (through the public API, indexed by the
// domains' own hooks). The phone opens /home/search (field focused, hot
// words), types 猫 (suggestions), searches it and walks every tab: each
// shows the API's ranking, every title marked where it matched. 北京's 帖子
// tab scrolls; a post opened and closed comes back to the same tab and
// scroll position. "iphone" finds "iPhone" (case folded) and "iPhone 教程"
// mixes scripts. 江南's videos filter by access level and module (the
// sheet, the URL, back from a result, clear, an empty filtered page). The
// history keeps the words newest first and clears after a confirm. A post the operator removes is found no more. Bad input gets
// its message, never an error page; offline shows the offline state.
// Screenshots light and dark.
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, consoleToken, signedIn } from './harness.mjs'
import { OPERATOR, operatorSetup, call } from './media.mjs'

const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'
let server, phone, page, opToken, freshHot
const posts = [] // {id, title} of the articles published here
const failed = []
const $ = (id) => page.locator(`[data-testid=${id}]`)

// The words the writers use: 北京 in every title, English in some.
const BEIJING = [
  '北京烤鸭怎么吃才地道', '北京胡同 citywalk 路线', '北京的秋天，香山红叶', '北京地铁通勤日记', '在北京租房的第一年',
  '北京小吃清单', '北京雨夜随拍', '北京到天津一日游', '北京的猫咖探店', '北京早餐地图',
  '北京博物馆周末', '北京夜跑路线',
]
const LATIN = ['iPhone 夜景拍摄教程', 'iPhone 录视频的三个设置']

async function api(method, path, opts) {
  return call(server.base, method, path, opts)
}

// raw answers the envelope whatever its code.
async function raw(path) {
  const r = await fetch(server.base + path, { headers: { 'X-App-Client': 'devID=e2esearch00000000001;ver=1.1.3;dev=ios;h5=1' } })
  return { status: r.status, ...(await r.json()) }
}

async function writer(account, titles) {
  const w = await api('POST', '/api/app/mine/register', { body: { account, passWord: PASSWORD } })
  for (const title of titles) {
    const p = await api('POST', '/api/app/community/post', { token: w.token, body: { kind: 'article', title, html: `<p>${title}，记录一下。</p>` } })
    posts.push({ id: p.id, title })
  }
  return w
}

before(async () => {
  server = await startServer({}, { setup: operatorSetup })
  opToken = await consoleToken(server.base, OPERATOR) // the operator console's token (password + TOTP)
  // Videos: two long ones and a short one holding 北京, one long with iPhone.
  const long = (await api('GET', '/api/app/modules/list?moduleType=0'))[0]
  const short = (await api('GET', '/api/app/modules/list?moduleType=4'))[0]
  for (const [title, sub] of [['北京中轴线纪录片', long.subModules[0].id], ['老北京的胡同故事', long.subModules[0].id], ['iPhone 教程：拍出电影感', long.subModules[0].id], ['北京街头一分钟', short.subModules[0].id]]) {
    await api('POST', '/api/admin/videos', { token: opToken, body: { title, subModuleID: sub, published: true, duration: 120 } })
  }
  // Twelve more free 江南 videos, so the free filter holds a page to scroll
  // (the seed's 江南 videos are free, VIP, coin-priced, in 首页 and 暗网).
  for (let i = 1; i <= 12; i++) {
    await api('POST', '/api/admin/videos', { token: opToken, body: { title: `江南水乡 第${i}集`, subModuleID: long.subModules[1].id, published: true, duration: 300 } })
  }
  // Two writers (ten posts per ten minutes each), one named for the city.
  const w1 = await writer('srch_a' + stamp, BEIJING.slice(0, 7))
  await writer('srch_b' + stamp, [...BEIJING.slice(7), ...LATIN])
  await api('POST', '/api/app/mine/info', { token: w1.token, body: { name: '北京小王' + stamp.slice(0, 3) } })
  // A fresh demo has hot words before anyone searched: the seed's pins.
  freshHot = (await api('GET', '/api/app/search/hot')).list
  // The operator pins a word: it leads the hot words, marked 置顶.
  await api('POST', '/api/admin/search/pins', { token: opToken, body: { words: ['北京美食'] } })
  phone = await launchPhone()
  page = phone.page
  page.on('response', (r) => { if (r.status() >= 500) failed.push(`${r.status()} ${new URL(r.url()).pathname}`) })
  await page.goto(server.base + '/')
  await page.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(page) // home shows while the guest signs in
})

after(async () => {
  await phone?.browser.close()
  await server?.stop()
})

// light: one screenshot, in the light scheme only (the dark one of the
// same page kind is taken elsewhere), to keep the file under a minute.
async function light(name) {
  await shot(page, `search-${name}-light`)
}

async function both(name) {
  for (const scheme of ['light', 'dark']) {
    await page.emulateMedia({ colorScheme: scheme })
    await shot(page, `search-${name}-${scheme}`)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

// shown lists the results on screen: [kind, id, title text, marked text].
async function shown() {
  return page.$$eval('[data-testid=searchresult-page] [data-testid=search-result], [data-testid=searchmore-page] [data-testid=search-result]', (els) =>
    els.map((e) => ({
      kind: e.dataset.kind,
      id: Number(e.dataset.id),
      marked: [...e.querySelectorAll('[data-testid=search-mark]')].map((m) => m.textContent).join('|'),
    })),
  )
}

async function apiPage(q, kind, sort = 'relevance', filter = '') {
  const r = await raw(`/api/app/search?q=${encodeURIComponent(q)}&kind=${kind}&sort=${sort}&pageNumber=1&pageSize=20${filter}`)
  assert.equal(r.code, 200, JSON.stringify(r))
  return r.data
}

test('/home/search opens with the field focused, hot words and suggestions as the user types', async () => {
  assert.ok(freshHot.length >= 3 && freshHot.every((h) => h.pinned), `a fresh demo's hot words: ${JSON.stringify(freshHot)}`)
  assert.ok(freshHot.some((h) => h.word === '猫咪'))
  await $('home-search').click()
  await page.waitForURL(/\/home\/search$/)
  await signedIn(page) // home shows while the guest signs in
  await $('search-page').waitFor()
  assert.equal(await $('search-page').getAttribute('data-route'), 'homesearch')
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'search-input')
  await $('search-hot-word').first().waitFor()
  assert.equal(await $('search-hot-word').first().getAttribute('data-pinned'), 'true')
  assert.match(await $('search-hot-word').first().innerText(), /北京美食[\s\S]*置顶/)
  await both('empty')
  // Suggestions: typing is debounced, the typed part marked.
  await page.keyboard.type('北京')
  await $('search-suggest').waitFor()
  await page.waitForFunction(() => document.querySelector('[data-testid=search-suggest]')?.getAttribute('data-q') === '北京')
  await page.waitForTimeout(400)
  const words = await $('search-suggest-word').allInnerTexts()
  for (const w of words) assert.match(w, /北京/)
  await both('suggest')
  // Back goes home (the home variant).
  await $('nav-back').click()
  await page.waitForURL(/\/home$/)
  await signedIn(page) // home shows while the guest signs in
})

test('猫: the overview and every tab show the ranked results, marked', async () => {
  await page.goto(server.base + '/search')
  await $('search-input').fill('猫')
  await page.keyboard.press('Enter')
  await page.waitForURL(/\/search\/result\?keyword=%E7%8C%AB$/)
  await $('search-overview').waitFor({ timeout: 15000 })
  const kinds = await page.$$eval('[data-testid=search-section]', (els) => els.map((e) => e.dataset.kind))
  assert.ok(kinds.length >= 3, `sections: ${kinds}`)
  assert.deepEqual(kinds, ['video', 'short', 'gallery', 'post', 'topic', 'user'].filter((k) => kinds.includes(k)))
  for (const k of ['post', 'topic', 'user']) assert.ok(kinds.includes(k), `猫 finds a ${k}`)
  const first = await shown()
  for (const r of first) assert.match(r.marked, /猫/, `${r.kind} ${r.id} marks 猫`)
  await both('overview')
  for (const kind of ['video', 'short', 'gallery', 'post', 'topic', 'user']) {
    await $(`search-tab-${kind}`).click()
    await page.waitForFunction((k) => document.querySelector(`[data-testid=search-kind]`)?.dataset.kind === k, kind)
    const want = await apiPage('猫', kind)
    if (want.total === 0) {
      await $('state-empty').waitFor()
      continue
    }
    await page.locator('[data-testid=search-kind] [data-testid=search-result]').first().waitFor({ timeout: 10000 })
    const got = await shown()
    assert.deepEqual(got.slice(0, want.list.length).map((r) => r.id), want.list.map((r) => r.id), `${kind}: the API's ranking, in order`)
    for (const r of got) assert.match(r.marked, /猫/, `${kind} ${r.id} marks 猫`)
    assert.match(page.url(), new RegExp(`kind=${kind}`))
    if (kind === 'post') await both(`tab-${kind}`)
    else if (kind !== 'video' && kind !== 'gallery') await light(`tab-${kind}`)
  }
})

test('北京: posts scroll; opening one and coming back restores the tab and the scroll position', async () => {
  await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('北京') + '&kind=post')
  await page.locator('[data-testid=search-kind] [data-testid=search-result]').first().waitFor({ timeout: 15000 })
  const got = await shown()
  const want = await apiPage('北京', 'post')
  assert.equal(want.total, BEIJING.length)
  assert.deepEqual(got.map((r) => r.id), want.list.map((r) => r.id))
  for (const r of got) assert.match(r.marked, /北京/)
  // The other tabs hold what the operator and the writers added (besides
  // the seed's own 北京 titles), every one of them naming 北京; a title
  // starting with the word ranks above one that only contains it.
  const titles = async (kind) => (await apiPage('北京', kind)).list.map((v) => v.title)
  const videos = await titles('video')
  for (const t of ['北京中轴线纪录片', '老北京的胡同故事']) assert.ok(videos.includes(t), `${t} in ${videos}`)
  assert.ok(videos.indexOf('北京中轴线纪录片') < videos.indexOf('老北京的胡同故事'), `${videos}`)
  const shorts = await titles('short')
  assert.ok(shorts.includes('北京街头一分钟'), `${shorts}`)
  for (const t of [...videos, ...shorts]) assert.match(t, /北京/)
  assert.ok((await apiPage('北京', 'user')).list.length >= 1)

  // Scroll to the eighth post, open it, come back.
  const { id, y } = await scrollAndOpen(7, 'post-link')
  await page.waitForURL(new RegExp(`/cdetail/${id}$`))
  await page.goBack()
  await page.waitForURL(/kind=post/)
  await page.locator('[data-testid=search-kind] [data-testid=search-result]').first().waitFor()
  await page.waitForFunction((want) => Math.abs(window.scrollY - want) < 4, y, { timeout: 5000 })
  assert.equal(await page.locator('[data-testid=search-tab-post]').getAttribute('aria-selected'), 'true')
  await both('beijing-posts')
})

// scrollAndOpen scrolls the nth result of the kind tab into view and a
// little past, then taps its link (testid); it returns the result's id and
// the scroll position to come back to.
async function scrollAndOpen(nth, link) {
  const target = page.locator('[data-testid=search-kind] [data-testid=search-result]').nth(nth)
  await target.scrollIntoViewIfNeeded()
  await page.mouse.wheel(0, 120)
  await page.waitForTimeout(300)
  const y = await page.evaluate(() => window.scrollY)
  assert.ok(y > 300, `scrolled (${y})`)
  const id = Number(await target.getAttribute('data-id'))
  await target.locator(`[data-testid=${link}]`).first().click()
  return { id, y }
}

// videoCards lists the video results on screen: [id, badge level].
async function videoCards() {
  return page.$$eval('[data-testid=search-kind] [data-testid=search-result]', (els) =>
    els.map((e) => ({ id: Number(e.dataset.id), level: e.querySelector('[data-testid=video-badge]')?.dataset.level ?? 'free' })),
  )
}

// filterTo opens the sheet, taps the choices and applies them.
async function filterTo(...choices) {
  await $('search-filter-open').click()
  await $('search-filter-sheet').waitFor()
  for (const c of choices) await $(c).click()
  await $('search-filter-apply').click()
  await $('search-filter-sheet').waitFor({ state: 'detached' })
}

// settled waits for the kind's results under a filter to be the API's, in
// its order, or (anyOrder) the same videos: once a video has been opened its
// play count, and so its place in the ranking, may have moved between the
// page's answer and the test's.
async function settled(vip, module, want, { anyOrder = false } = {}) {
  await page.waitForFunction(([v, m]) => {
    const k = document.querySelector('[data-testid=search-kind]')
    return k?.dataset.vip === String(v) && k?.dataset.module === String(m)
  }, [vip, module])
  await page.waitForFunction(([ids, anyOrder]) => {
    let got = [...document.querySelectorAll('[data-testid=search-kind] [data-testid=search-result]')].map((e) => Number(e.dataset.id))
    if (anyOrder) {
      got = got.sort((a, b) => a - b)
      ids = [...ids].sort((a, b) => a - b)
    }
    return JSON.stringify(got) === JSON.stringify(ids)
  }, [want.list.map((r) => r.id), anyOrder], { timeout: 10000 })
}

test('江南: filter the videos to VIP, then to a module, come back from a result to the same filters and place, clear', async () => {
  const all = await apiPage('江南', 'video')
  const levels = new Set(all.list.map((r) => r.video.vipLevel))
  assert.ok(levels.has(0) && levels.has(1), `江南 finds free and VIP videos: ${[...levels]}`)
  await page.goto(server.base + '/search')
  await $('search-input').fill('江南')
  await page.keyboard.press('Enter')
  await $('search-overview').waitFor({ timeout: 15000 })
  await $('search-tab-video').click()
  await settled(-1, 0, all)
  assert.equal(await $('search-filter-open').getAttribute('data-active'), 'false')
  assert.equal(await $('search-filter-summary').count(), 0)

  // VIP: only VIP videos, the button and the line say so.
  await filterTo('search-filter-vip-1')
  assert.match(page.url(), /kind=video&vipLevel=1$/)
  const vip = await apiPage('江南', 'video', 'relevance', '&vipLevel=1')
  assert.ok(vip.list.length > 0 && vip.list.length < all.total)
  for (const r of vip.list) assert.equal(r.video.vipLevel, 1)
  await settled(1, 0, vip)
  for (const c of await videoCards()) assert.equal(c.level, '1', `video ${c.id} shows the VIP badge`)
  assert.equal(await $('search-filter-open').getAttribute('data-active'), 'true')
  assert.deepEqual(await $('search-filter-pill').allInnerTexts(), ['VIP'])

  // A module (the dark module, every level): only its videos.
  const dark = (await api('GET', '/api/app/modules/list?moduleType=2'))[0]
  await $('search-filter-open').click()
  await $('search-filter-sheet').waitFor()
  await both('filter-sheet')
  await $('search-filter-vip-any').click()
  await $(`search-filter-module-${dark.moduleID}`).click()
  await $('search-filter-apply').click()
  assert.match(page.url(), new RegExp(`kind=video&moduleID=${dark.moduleID}$`))
  const inDark = await apiPage('江南', 'video', 'relevance', `&moduleID=${dark.moduleID}`)
  assert.ok(inDark.list.length > 0 && inDark.list.length < all.total)
  for (const r of inDark.list) assert.equal(r.video.moduleID, dark.moduleID)
  await settled(-1, dark.moduleID, inDark)
  assert.deepEqual(await $('search-filter-pill').allInnerTexts(), [dark.moduleName])

  // Free (and coin-priced) in any module: a page to scroll. Open the
  // twelfth, come back: same filters, same place.
  await filterTo('search-filter-module-0', 'search-filter-vip-0')
  const free = await apiPage('江南', 'video', 'relevance', '&vipLevel=0')
  assert.ok(free.list.length >= 16, `${free.list.length} free`)
  await settled(0, 0, free)
  for (const c of await videoCards()) assert.ok(c.level === 'free' || c.level === 'coins', `video ${c.id}: ${c.level}`)
  await both('filtered')
  const { id, y } = await scrollAndOpen(11, 'video-card')
  await page.waitForURL(new RegExp(`/detail/${id}$`))
  await $('detail-page').waitFor()
  await page.goBack()
  await page.waitForURL(/kind=video&vipLevel=0$/)
  await settled(0, 0, free)
  await page.waitForFunction((want) => Math.abs(window.scrollY - want) < 4, y, { timeout: 5000 })
  assert.equal(await $('search-filter-open').getAttribute('data-active'), 'true')

  // Clear: every video again.
  await page.evaluate(() => window.scrollTo(0, 0))
  await $('search-filter-clear').click()
  await page.waitForURL(/kind=video$/)
  await settled(-1, 0, all, { anyOrder: true })

  // Another tab keeps the access level and drops the module (modules are
  // each kind's own).
  await filterTo('search-filter-vip-1', `search-filter-module-${dark.moduleID}`)
  await $('search-tab-short').click()
  await page.waitForURL(/kind=short&vipLevel=1$/)
  await page.waitForFunction(() => document.querySelector('[data-testid=search-kind]')?.dataset.vip === '1')

  // Nothing under a filter: it says so, and 清除筛选 brings the results back.
  const sub = (await api('GET', '/api/app/modules/list?moduleType=0'))[0].subModules.at(-1)
  assert.equal((await apiPage('江南', 'video', 'relevance', `&vipLevel=2&moduleID=${sub.id}`)).total, 0)
  await page.goto(server.base + `/search/result?keyword=${encodeURIComponent('江南')}&kind=video&vipLevel=2&moduleID=${sub.id}`)
  await $('state-empty').waitFor({ timeout: 10000 })
  assert.match(await $('state-empty').innerText(), /没有符合筛选条件的内容/)
  await light('filter-empty')
  await $('search-filter-clear-empty').click()
  await page.waitForURL(/kind=video$/)
  await settled(-1, 0, all, { anyOrder: true })
})

test('an English word: case folded, and mixed with Chinese', async () => {
  await page.goto(server.base + '/search')
  await $('search-input').fill('iphone')
  await $('search-submit').click()
  await $('search-overview').waitFor({ timeout: 15000 })
  const kinds = await page.$$eval('[data-testid=search-section]', (els) => els.map((e) => e.dataset.kind))
  assert.deepEqual(kinds, ['video', 'post'])
  for (const r of await shown()) assert.equal(r.marked.toLowerCase().split('|')[0], 'iphone')
  await light('iphone')
  // 查看更多 is there only when a section holds more than it shows.
  const mixed = await apiPage('iPhone 教程', 'video')
  assert.equal(mixed.list[0].title, 'iPhone 教程：拍出电影感')
  await page.goto(server.base + '/search/more?keyword=' + encodeURIComponent('iPhone 教程') + '&kind=post')
  await page.locator('[data-testid=searchmore-page] [data-testid=search-result]').first().waitFor({ timeout: 10000 })
  const more = await shown()
  assert.equal(more[0].id, posts.find((p) => p.title === 'iPhone 夜景拍摄教程').id, 'the post holding both words ranks first')
  await both('more')
})

test('the history keeps the words newest first and clears after a confirm', async () => {
  await page.goto(server.base + '/search')
  await $('search-history').waitFor()
  const words = await $('search-history-word').allInnerTexts()
  assert.deepEqual(words.slice(0, 3), ['iphone', '江南', '猫'])
  await both('history')
  // A word from the history searches it.
  await $('search-history-word').nth(2).click()
  await page.waitForURL(/keyword=%E7%8C%AB/)
  await page.goBack()
  await $('search-history-clear').click()
  await page.locator('.adm-dialog-button', { hasText: '清空' }).click()
  await $('search-history').waitFor({ state: 'detached' })
  await page.reload()
  await $('search-hot').waitFor()
  assert.equal(await $('search-history').count(), 0)
})

test('a post the operator removes is found no more', async () => {
  const gone = posts.find((p) => p.title === '北京雨夜随拍')
  const before = await apiPage('北京雨夜', 'post')
  assert.equal(before.list[0]?.id, gone.id)
  await api('POST', '/api/admin/community/posts/remove', { token: opToken, body: { id: gone.id, reason: '与主题无关' } })
  assert.ok(!(await apiPage('北京', 'post')).list.some((r) => r.id === gone.id))
  await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('北京雨夜') + '&kind=post')
  await page.waitForFunction(() => document.querySelector('[data-testid=search-kind] [data-testid=search-result], [data-testid=state-empty]'))
  assert.ok(!(await shown()).some((r) => r.id === gone.id))
  await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('北京') + '&kind=post')
  await page.locator('[data-testid=search-kind] [data-testid=search-result]').first().waitFor({ timeout: 10000 })
  const ids = (await shown()).map((r) => r.id)
  assert.equal(ids.length, BEIJING.length - 1)
  assert.ok(!ids.includes(gone.id))
})

test('bad input gets its message, never an error page; nothing found; offline', async () => {
  // Empty, control characters only, and 1,000 characters.
  await page.goto(server.base + '/search')
  await $('search-submit').click()
  await page.getByText('请输入搜索内容').first().waitFor()
  await $('search-input').fill('猫'.repeat(1000))
  await page.keyboard.press('Enter')
  await page.getByText('搜索内容最多 100 个字').first().waitFor()
  assert.match(page.url(), /\/search$/)
  await page.goto(server.base + '/search/result?keyword=%00%01')
  await $('state-empty').waitFor()
  // Query syntax is plain text.
  for (const q of ['"猫" OR 1=1', 'title:猫*', 'NEAR(猫 狗)', "'; DROP TABLE posts; --"]) {
    const r = await raw('/api/app/search/overview?q=' + encodeURIComponent(q))
    assert.ok(r.status < 500, `${q}: ${r.status}`)
  }
  await page.goto(server.base + '/search/result?keyword=' + encodeURIComponent('没有这种东西zzqx'))
  await $('state-empty').waitFor({ timeout: 10000 })
  assert.match(await $('state-empty').innerText(), /没有找到相关内容/)
  await light('none')
  // Offline: a new word shows the offline state with retry.
  await phone.context.setOffline(true)
  await $('search-input').fill('北京烤鸭')
  await page.keyboard.press('Enter')
  await $('state-offline').waitFor({ timeout: 10000 })
  await both('offline')
  // Back online the app retries by itself (or on 重试, if it is still there).
  await phone.context.setOffline(false)
  await $('state-retry').click({ timeout: 2000 }).catch(() => {})
  await page.locator('[data-testid=search-result]').first().waitFor({ timeout: 10000 })
  assert.deepEqual(failed, [])
})
