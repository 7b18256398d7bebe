// Delivery lines (spec §9): which origin the app calls the API on and loads
// images and videos from. Pure logic: fetch is passed in, so tests drive it
// with a fake fetch and fake timers; src/app/lines.ts wires it up.
//
// - Media lines (image, video) are raced: GET {line}/check on every line at
//   once, 1 s each; the first to answer "ok" wins ("the fastest responding
//   line is chosen").
// - API lines: GET {line}/api/app/ping/check, 3 s, success on HTTP 200 with
//   envelope code 200. "The first working line wins" is read as list order
//   (the operator's preference), but the checks go out at once: line n wins
//   as soon as it has succeeded and lines 0..n-1 have failed, so three dead
//   lines cost one timeout, not three.
// - When no API line works, the fallback sources are fetched (text files:
//   base64 of JSON {"ios": ["https://api-line", ...]}) and their lines are
//   tried the same way.
// - Every line that failed is named with how it failed, for the error
//   report (buildLineReport).

export const API_CHECK_TIMEOUT_MS = 3000
export const MEDIA_CHECK_TIMEOUT_MS = 1000
export const FALLBACK_TIMEOUT_MS = 3000
// Bounds on what a fallback file may make us try (it comes from a host we
// do not run) and on the text we read.
export const MAX_FALLBACK_LINES = 20
const MAX_FALLBACK_BYTES = 16 * 1024

// How a line failed: timeout, network (no answer: refused, DNS, CORS, CSP),
// http NNN (a status other than 200), code NNN (an envelope other than
// 200), bad answer (not the expected body).
export type LineFailure = 'timeout' | 'network' | 'bad answer' | `http ${number}` | `code ${number}`

export type Fetch = (url: string, init: RequestInit) => Promise<Response>

export interface DomainLists {
  api: string[]
  image: string[]
  video: string[]
  fallback?: string[]
}

export interface ChosenLines {
  api: string | null // null: none answered; the caller stays on its origin
  image: string | null
  video: string | null
}

export interface LineChoice extends ChosenLines {
  failures: Record<string, LineFailure>
}

// lineBase turns a line into a base to put paths after: no trailing slash.
export function lineBase(line: string): string {
  return line.trim().replace(/\/+$/, '')
}

// isLineURL: an absolute http(s) URL with no credentials. Anything else in
// a list (from a fallback file especially) is skipped, never fetched.
export function isLineURL(s: unknown): s is string {
  if (typeof s !== 'string' || s.length > 512) return false
  try {
    const u = new URL(s)
    return (u.protocol === 'http:' || u.protocol === 'https:') && u.host !== '' && u.username === '' && u.password === ''
  } catch {
    return false
  }
}

// probe GETs url with a timeout and hands the response to judge; a thrown
// fetch is network, the timer firing first is timeout.
async function probe(fetchFn: Fetch, url: string, timeoutMs: number, judge: (res: Response) => Promise<LineFailure | null>): Promise<LineFailure | null> {
  const ctrl = new AbortController()
  let timedOut = false
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<LineFailure>((resolve) => {
    timer = setTimeout(() => {
      timedOut = true
      ctrl.abort()
      resolve('timeout')
    }, timeoutMs)
  })
  const attempt = (async (): Promise<LineFailure | null> => {
    try {
      const res = await fetchFn(url, { method: 'GET', cache: 'no-store', signal: ctrl.signal, credentials: 'omit' })
      return await judge(res)
    } catch {
      return timedOut ? 'timeout' : 'network'
    }
  })()
  try {
    return await Promise.race([attempt, timeout])
  } finally {
    clearTimeout(timer)
  }
}

// checkMediaLine: GET {line}/check answers "ok" within 1 s.
export function checkMediaLine(fetchFn: Fetch, line: string): Promise<LineFailure | null> {
  return probe(fetchFn, lineBase(line) + '/check', MEDIA_CHECK_TIMEOUT_MS, async (res) => {
    if (res.status !== 200) return `http ${res.status}`
    const text = (await res.text()).trim()
    return text === 'ok' ? null : 'bad answer'
  })
}

// checkApiLine: GET {line}/api/app/ping/check answers HTTP 200 with
// envelope code 200 within 3 s.
export function checkApiLine(fetchFn: Fetch, line: string): Promise<LineFailure | null> {
  return probe(fetchFn, lineBase(line) + '/api/app/ping/check', API_CHECK_TIMEOUT_MS, async (res) => {
    if (res.status !== 200) return `http ${res.status}`
    let env: unknown
    try {
      env = JSON.parse(await res.text())
    } catch {
      return 'bad answer'
    }
    const code = typeof env === 'object' && env !== null ? (env as { code?: unknown }).code : undefined
    if (typeof code !== 'number') return 'bad answer'
    return code === 200 ? null : `code ${code}`
  })
}

type Check = (line: string) => Promise<LineFailure | null>

// memo runs each line's check once per choice, so a line listed for both
// images and videos is probed once.
function memo(check: Check): Check {
  const seen = new Map<string, Promise<LineFailure | null>>()
  return (line) => {
    const key = lineBase(line)
    let p = seen.get(key)
    if (!p) {
      p = check(key)
      seen.set(key, p)
    }
    return p
  }
}

function distinct(lines: readonly unknown[]): string[] {
  const out: string[] = []
  for (const l of lines) {
    if (!isLineURL(l)) continue
    const b = lineBase(l)
    if (!out.includes(b)) out.push(b)
  }
  return out
}

// raceLines: every line at once; the first that succeeds wins. Failures of
// lines that lost are recorded as they come in (a line still pending when
// the winner answered is not recorded: it was slow, not down).
export function raceLines(lines: readonly string[], check: Check, failures: Record<string, LineFailure>): Promise<string | null> {
  const list = distinct(lines)
  if (list.length === 0) return Promise.resolve(null)
  return new Promise((resolve) => {
    let pending = list.length
    let done = false
    for (const line of list) {
      void check(line).then((f) => {
        pending--
        if (f === null) {
          if (!done) {
            done = true
            resolve(line)
          }
        } else if (!done) {
          failures[line] = f
        }
        if (pending === 0 && !done) {
          done = true
          resolve(null)
        }
      })
    }
  })
}

// firstInOrder: every line at once, but the winner is the first line in
// list order that succeeds: it is taken as soon as every line before it has
// failed.
export async function firstInOrder(lines: readonly string[], check: Check, failures: Record<string, LineFailure>): Promise<string | null> {
  const list = distinct(lines)
  const results = list.map((l) => check(l))
  for (let i = 0; i < list.length; i++) {
    const f = await results[i]
    if (f === null) return list[i]
    failures[list[i]] = f
  }
  return null
}

// decodeFallback reads a fallback file: base64 (standard or URL-safe,
// whitespace and missing padding tolerated) of JSON {"ios": [urls]}.
// Anything else gives []: the file comes from a host we do not control.
export function decodeFallback(text: string): string[] {
  try {
    const b64 = text.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/')
    if (b64 === '' || !/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return []
    const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4)
    const bin = atob(padded)
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0))
    const parsed: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
    const ios = typeof parsed === 'object' && parsed !== null ? (parsed as { ios?: unknown }).ios : undefined
    if (!Array.isArray(ios)) return []
    return distinct(ios).slice(0, MAX_FALLBACK_LINES)
  } catch {
    return []
  }
}

// fetchFallback reads the fallback sources in order and returns the lines
// of the first that yields any.
export async function fetchFallback(fetchFn: Fetch, sources: readonly string[]): Promise<string[]> {
  for (const src of sources) {
    if (!isLineURL(src)) continue
    let text = ''
    const failed = await probe(fetchFn, src, FALLBACK_TIMEOUT_MS, async (res) => {
      if (res.status !== 200) return `http ${res.status}`
      text = (await res.text()).slice(0, MAX_FALLBACK_BYTES)
      return null
    })
    if (failed) continue
    const lines = decodeFallback(text)
    if (lines.length > 0) return lines
  }
  return []
}

// chooseLines checks the lines of a domain/h5 answer: media lines raced,
// API lines in order, then the fallback sources' lines when every API line
// failed.
export async function chooseLines(fetchFn: Fetch, domains: DomainLists): Promise<LineChoice> {
  const failures: Record<string, LineFailure> = {}
  const media = memo((l) => checkMediaLine(fetchFn, l))
  const apiCheck = memo((l) => checkApiLine(fetchFn, l))
  const [image, video, api] = await Promise.all([
    raceLines(domains.image ?? [], media, failures),
    raceLines(domains.video ?? [], media, failures),
    (async () => {
      const first = await firstInOrder(domains.api ?? [], apiCheck, failures)
      if (first !== null) return first
      const extra = await fetchFallback(fetchFn, domains.fallback ?? [])
      return firstInOrder(extra, apiCheck, failures)
    })(),
  ])
  // A line that won somewhere is not down, even if a slower list saw it
  // fail first (they share one check, so this is only a guard).
  for (const l of [image, video, api]) if (l) delete failures[l]
  return { api, image, video, failures }
}

export interface ReportContext {
  appname: string
  appv: string
  dev: string
  userid: number | null
}

// The body of POST /api/app/report/error for unreachable lines (spec §9:
// {appname, appv, dev, domain map, userid, userip}; the server fills userip
// and takes the uid from the token, so userid is informative only).
export interface LineReport extends ReportContext {
  kind: 'line'
  domain: Record<string, LineFailure>
}

// LineReporter sends each unreachable line once per page session: a line
// already reported is left out, and nothing is sent when nothing new
// failed. send's failures are swallowed (spec §8).
export class LineReporter {
  private readonly reported = new Set<string>()
  constructor(private readonly send: (body: LineReport) => Promise<unknown>) {}

  async report(failures: Record<string, LineFailure>, ctx: ReportContext): Promise<boolean> {
    const domain: Record<string, LineFailure> = {}
    for (const [line, f] of Object.entries(failures)) {
      if (this.reported.has(line)) continue
      this.reported.add(line)
      domain[line] = f
    }
    if (Object.keys(domain).length === 0) return false
    try {
      await this.send({ kind: 'line', ...ctx, domain })
      return true
    } catch {
      return false
    }
  }
}

// mediaURL puts a server-relative media path ("/media/...") on the chosen
// media line; absolute URLs, data: and blob: URLs pass unchanged, and so
// does everything when no line (or this page's origin) was chosen.
export function mediaURL(src: string, line: string | null | undefined, pageOrigin?: string): string {
  if (!line || !src.startsWith('/') || src.startsWith('//')) return src
  const base = lineBase(line)
  if (pageOrigin && base === lineBase(pageOrigin)) return src
  return base + src
}

// apiBase is what the API client should use for the chosen API line: ''
// (same origin, no CORS) when it is this page's origin.
export function apiBase(line: string | null, pageOrigin: string): string {
  if (!line) return ''
  const base = lineBase(line)
  return base === lineBase(pageOrigin) ? '' : base
}
