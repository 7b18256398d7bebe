// The XSS corpus, through every community field a user writes: post titles,
// texts, an article's html, comments and a user name. Each payload, if it
// ever ran, would set window.__xss or open a dialog. The pages that show
// them (/cdetail, /community, /usercenter) are opened in a real browser:
// no dialog may open, window.__xss stays undefined, plain text reads back
// exactly as written (never half-escaped like &amp;lt;), and an article's
// html comes back sanitised (no script, handlers, javascript: or data:
// links, styles, frames).
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import { startServer, launchPhone, shot, signedIn } from './harness.mjs'
import { call } from './media.mjs'

const stamp = Date.now().toString(36).slice(-5)
const PASSWORD = 'secret12'

const CORPUS = [
  '<script>window.__xss=1</script>',
  '<img src=x onerror="window.__xss=1">',
  '<img src=x onerror=alert(1)>',
  '<svg onload="window.__xss=1"><circle r=5 /></svg>',
  '<a href="javascript:window.__xss=1">js link</a>',
  '<a href="data:text/html,<script>parent.__xss=1</script>">data link</a>',
  '<div style="background:url(javascript:window.__xss=1)">styled</div><style>body{display:none}</style>',
  '"><script>window.__xss=1</script>',
  "'><img src=x onerror=window.__xss=1>",
  "{{constructor.constructor('window.__xss=1')()}}",
  '<iframe src="javascript:window.__xss=1"></iframe>',
  '<math><mtext><table><mglyph><style><img src=x onerror=window.__xss=1>',
  '&lt;b&gt;entities stay as typed&lt;/b&gt; &amp;amp; &#60;',
]

let server, P, dialogs
const failed = []

before(async () => {
  server = await startServer()
  P = await launchPhone()
  dialogs = []
  P.page.on('dialog', async (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`)
    await d.dismiss().catch(() => {})
  })
  P.page.on('response', (r) => { if (r.status() >= 500) failed.push(`${r.status()} ${new URL(r.url()).pathname}`) })
})

after(async () => {
  await P?.browser.close()
  await server?.stop()
})

const $ = (id) => P.page.locator(`[data-testid=${id}]`)

async function settle(name) {
  await P.page.waitForTimeout(400)
  await shot(P.page, `xss-${name}`)
  assert.deepEqual(dialogs, [], 'a payload opened a dialog')
  assert.equal(await P.page.evaluate(() => typeof window.__xss), 'undefined', 'a payload ran')
}

let token, uid, picturePost, articlePost
const NAME = '"><b>x</b>{{1}}' // 15 characters: the name rule allows 16
const TITLE = '<img src=x onerror=alert(1)>"><script>'
const ARTICLE_TITLE = '"><svg onload=alert(1)>'

test('a registered user writes the corpus into a name, posts and comments', async () => {
  const p = P.page
  await p.goto(server.base + '/')
  await p.waitForURL(/\/home/, { timeout: 15000 })
  await signedIn(p) // home shows while the guest signs in
  await p.goto(server.base + '/mine/register')
  await $('register-account').fill('xss_' + stamp)
  await $('register-password').fill(PASSWORD)
  await $('register-confirm').fill(PASSWORD)
  await $('register-submit').click()
  await p.waitForURL(/\/mine$/, { timeout: 15000 })
  token = await p.evaluate(() => JSON.parse(localStorage.getItem('prima_token') ?? 'null'))
  const me = await call(server.base, 'POST', '/api/app/mine/info', { token, body: { name: NAME } })
  assert.equal(me.name, NAME, 'the name reads back exactly as written')
  uid = (await call(server.base, 'GET', '/api/app/mine/info', { token })).uid

  const jpeg = await p.screenshot({ type: 'jpeg', quality: 60 })
  const form = new FormData()
  form.append('file', new Blob([jpeg], { type: 'image/jpeg' }), 'x.jpg')
  const pic = (await call(server.base, 'POST', '/api/app/vid/uploadStatic', { token, form })).id

  const text = CORPUS.join('\n')
  picturePost = (await call(server.base, 'POST', '/api/app/community/post', {
    token, body: { kind: 'picture', title: TITLE, text, pictures: [pic], clientID: 'x1' + stamp },
  })).id
  articlePost = (await call(server.base, 'POST', '/api/app/community/post', {
    token, body: { kind: 'article', title: ARTICLE_TITLE, html: '<p>正文开始</p>' + CORPUS.slice(0, -1).join('') + '<p>正文结束</p>', clientID: 'x2' + stamp },
  })).id
  for (const [i, c] of CORPUS.entries()) {
    await call(server.base, 'POST', '/api/app/community/comment', { token, body: { postID: picturePost, text: c, clientID: `xc${i}` } })
  }

  // Read back through the API: plain text exactly, the article sanitised.
  const d = await call(server.base, 'GET', `/api/app/community/post?id=${picturePost}`)
  assert.equal(d.title, TITLE)
  assert.equal(d.text, text)
  assert.equal(d.author.name, NAME)
  const a = await call(server.base, 'GET', `/api/app/community/post?id=${articlePost}`)
  assert.equal(a.title, ARTICLE_TITLE)
  for (const bad of [/<script/i, /\son\w+=/i, /javascript:/i, /data:text/i, /<style/i, /style=/i, /<iframe/i, /<svg/i, /<math/i]) {
    assert.doesNotMatch(a.html, bad, `sanitised html holds ${bad}`)
  }
  assert.match(a.html, /正文开始/)
  // An unclosed <style> (the math payload) swallows the rest as raw text, so
  // the closing paragraph is rightly gone.
})

test('/cdetail shows the picture post’s title, text and comments as plain text', async () => {
  const p = P.page
  await p.goto(`${server.base}/cdetail/${picturePost}`)
  await $('post-title').waitFor()
  assert.equal(await $('post-title').innerText(), TITLE)
  assert.equal(await $('post-text').innerText(), CORPUS.join('\n'))
  assert.equal(await p.locator('[data-testid=post-text] *').count(), 0, 'the text made elements')
  assert.equal(await $('post-author-name').innerText(), NAME)
  await p.locator('[data-testid=comment-text]').nth(CORPUS.length - 1).waitFor()
  const comments = await p.locator('[data-testid=comment-text]').allInnerTexts()
  assert.deepEqual(comments, CORPUS)
  assert.equal(await p.locator('[data-testid=comment-text] *').count(), 0)
  await settle('cdetail-picture')
})

test('/cdetail renders the article’s sanitised html and nothing runs', async () => {
  const p = P.page
  await p.goto(`${server.base}/cdetail/${articlePost}`)
  await $('post-article').waitFor()
  assert.equal(await $('post-title').innerText(), ARTICLE_TITLE)
  const bad = await p.locator('[data-testid=post-article] :is(script, iframe, svg, math, style, object, embed, [onerror], [onload], [style], a[href^="javascript"], a[href^="data"])').count()
  assert.equal(bad, 0)
  const text = await $('post-article').innerText()
  assert.doesNotMatch(text, /&amp;lt;|&lt;|&amp;/, 'half-escaped text')
  for (const a of await p.locator('[data-testid=post-article] a').all()) {
    assert.match((await a.getAttribute('rel')) ?? '', /nofollow/)
  }
  await settle('cdetail-article')
})

test('/usercenter and /community show the name and posts without running anything', async () => {
  const p = P.page
  await p.goto(`${server.base}/usercenter/${uid}`)
  await p.locator('[data-testid=people-name]').waitFor()
  assert.equal(await p.locator('[data-testid=people-name]').innerText(), NAME)
  await settle('usercenter')
  await p.goto(`${server.base}/community`)
  await p.waitForTimeout(1500)
  await settle('community')
  assert.deepEqual(failed, [])
})
