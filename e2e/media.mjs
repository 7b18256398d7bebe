// Playable media for tests: an operator (made by `prima admin create` in
// startServer's setup) uploads small vertical clips rendered by ffmpeg and
// attaches them to the first videos of the short-video feed.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { consoleToken } from './harness.mjs'

export const OPERATOR = { account: 'ops_1', password: 'secret12' }

// operatorSetup is startServer's setup: it creates the operator (an owner).
export const operatorSetup = (run) => run(['admin', 'create', '-account', OPERATOR.account], OPERATOR.password + '\n')

export async function call(base, method, path, { token, body, form } = {}) {
  const headers = { 'X-App-Client': 'devID=e2emediaoperator0001;ver=1.1.3;dev=ios;h5=1' }
  if (token) headers.Authorization = `Bearer ${token}`
  let payload
  if (form) payload = form
  else if (body) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  const r = await fetch(base + path, { method, headers, body: payload })
  const env = await r.json()
  if (env.code !== 200) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(env)}`)
  return env.data
}

// shortFeedIds lists the first n videos of the short-video tab's feed, in
// the order the page shows them.
export async function shortFeedIds(base, n) {
  const mods = await call(base, 'GET', '/api/app/modules/list?moduleType=4')
  const feed = await call(base, 'GET', `/api/app/vid/moduleVideo?moduleID=${mods[0].moduleID}&sortType=0&pageNumber=1&pageSize=10&playTimeType=0&newsType=0`)
  return { moduleID: mods[0].moduleID, ids: feed.list.slice(0, n).map((v) => v.id) }
}

// attachClips renders one 12 s 360x640 clip per colour, uploads each,
// waits until transcoded and attaches them in order to videoIds. The
// operator uploads them, or the user whose token is uploaderToken (a
// user's upload makes them the video's uploader); the operator attaches.
// 12 s, so a VIP or gold video among them still has a preview (a third of
// its length in whole 2 s segments: 4 s); seconds makes them shorter or
// longer (3 s: too short for any preview).
export async function attachClips(base, videoIds, colours = ['red', 'green', 'blue', 'yellow'], uploaderToken, seconds = 12) {
  const work = mkdtempSync(join(tmpdir(), 'prima-clips-'))
  try {
    // The operator uploads through the app like anyone (its phone-app
    // token) and attaches in the console (its console token).
    const op = await call(base, 'POST', '/api/app/mine/login/h5', { body: { account: OPERATOR.account, passWord: OPERATOR.password, sysType: 'ios' } })
    const console = await consoleToken(base, OPERATOR)
    const upTok = uploaderToken ?? op.token
    const assets = []
    for (let i = 0; i < videoIds.length; i++) {
      const out = join(work, `${i}.mp4`)
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `color=c=${colours[i % colours.length]}:s=360x640:d=${seconds}`, '-f', 'lavfi', '-i', `sine=d=${seconds}`,
        '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', out])
      const form = new FormData()
      form.append('file', new Blob([readFileSync(out)], { type: 'video/mp4' }), 'clip.mp4')
      assets.push((await call(base, 'POST', '/api/app/vid/uploadStatic', { token: upTok, form })).id)
    }
    const deadline = Date.now() + 120_000
    for (const id of assets) {
      for (;;) {
        const a = await call(base, 'GET', `/api/app/vid/uploadStatic?id=${id}`, { token: upTok })
        if (a.state === 'ready') break
        if (a.state === 'failed') throw new Error(`asset ${id} failed: ${a.error}`)
        if (Date.now() > deadline) throw new Error(`asset ${id} still ${a.state}`)
        await new Promise((r) => setTimeout(r, 300))
      }
    }
    for (let i = 0; i < videoIds.length; i++) await call(base, 'POST', '/api/admin/videos/media', { token: console, body: { videoId: videoIds[i], mediaId: assets[i] } })
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
