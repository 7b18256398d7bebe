// The console's client over /api/admin (docs/api.md; the session calls are
// docs/api.md *Operator console*).
//
// - Every answer is the envelope {code, tip, msg, data}: code 200 resolves
//   with data; anything else rejects with an ApiError carrying the status,
//   the server's tip (what the operator reads), msg and data.
// - The console's own session token (never the phone app's) goes out as
//   Authorization: Bearer; it lives in lib/session-store.ts.
// - 401 on a call that carried the token: the session is over (expired,
//   revoked, signed out elsewhere). The unauthorized hook runs (the app
//   forgets the token and goes to /admin/login) and the call rejects.
//   The sign-in calls pass auth: false, so their 401 is only an error.
// - 403 with data.stepUp: the call needs a TOTP code entered in the last
//   five minutes. The step-up hook asks for one (and posts it to
//   session/stepup); when it says the code was taken, the call is sent
//   again, once. A second refusal, or a cancelled prompt, rejects with the
//   403.
// This module holds no React and no router: the app wires the hooks.

export type ApiErrorKind = 'http' | 'network' | 'parse'

export class ApiError extends Error {
  readonly status: number // HTTP status; 0 when no answer arrived
  readonly code: number // the envelope's code, else the status
  readonly tip: string // for the operator, from the server
  readonly msg: string // for developers
  readonly data: unknown // the envelope's data (the 428's enrolment, the 403's stepUp)
  readonly kind: ApiErrorKind

  constructor(init: { status: number; code: number; tip: string; msg: string; data?: unknown; kind: ApiErrorKind }) {
    super(init.msg || init.tip)
    this.name = 'ApiError'
    this.status = init.status
    this.code = init.code
    this.tip = init.tip
    this.msg = init.msg
    this.data = init.data ?? null
    this.kind = init.kind
  }

  // needsStepUp: the server wants a fresh TOTP code before this call.
  get needsStepUp(): boolean {
    return this.status === 403 && isRecord(this.data) && this.data.stepUp === true
  }
}

export type Params = Record<string, string | number | boolean | null | undefined>

export interface CallOptions {
  params?: Params // query string (null, undefined and '' are left out)
  body?: unknown // JSON body
  // auth false: no token is sent and a 401 is the call's own error (the
  // sign-in and enrolment calls).
  auth?: boolean
  // stepUp false: a 403 stepUp is not prompted for (the stepup call itself).
  stepUp?: boolean
  signal?: AbortSignal
}

export interface ClientHooks {
  token: () => string | null
  onUnauthorized: (err: ApiError) => void
  // stepUp resolves true when a fresh code was accepted (retry the call),
  // false when the operator gave up.
  stepUp: (err: ApiError) => Promise<boolean>
}

type Fetch = (input: string, init: RequestInit) => Promise<Response>

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// query encodes params with the keys sorted, so equal filters make equal URLs.
export function query(params?: Params): string {
  if (!params) return ''
  const q = new URLSearchParams()
  for (const k of Object.keys(params).sort()) {
    const v = params[k]
    if (v === null || v === undefined || v === '') continue
    q.append(k, String(v))
  }
  const s = q.toString()
  return s ? '?' + s : ''
}

// Generic words for answers that carry no tip of their own; the i18n layer
// may show them translated by status (components/ErrorState).
const networkTip = '网络连接失败，请检查网络后重试'
const fallbackTip = (status: number) => (status >= 500 ? '服务器开小差了，请稍后再试' : `请求失败（${status}）`)

// unwrap turns a status and a body into the envelope's data, or throws.
export function unwrap<T>(status: number, text: string): T {
  let env: unknown
  try {
    env = text ? JSON.parse(text) : null
  } catch {
    env = null
  }
  if (!isRecord(env) || typeof env.code !== 'number') {
    throw new ApiError({ status, code: status, tip: fallbackTip(status), msg: 'not an envelope', kind: status >= 200 && status < 300 ? 'parse' : 'http' })
  }
  const tip = typeof env.tip === 'string' && env.tip.trim() !== '' ? env.tip : ''
  const msg = typeof env.msg === 'string' ? env.msg : ''
  if (status >= 200 && status < 300 && env.code === 200) return (env.data ?? null) as T
  const st = status >= 200 && status < 300 ? env.code : status
  throw new ApiError({ status: st, code: env.code, tip: tip || fallbackTip(st), msg, data: env.data, kind: 'http' })
}

export interface Client {
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, opts?: CallOptions): Promise<T>
  get<T>(path: string, params?: Params, opts?: Omit<CallOptions, 'params'>): Promise<T>
  post<T>(path: string, body?: unknown, opts?: Omit<CallOptions, 'body'>): Promise<T>
  del<T>(path: string, opts?: CallOptions): Promise<T>
  // download fetches a file answer (the audit CSV) with the token, through
  // the same 401 and step-up handling; an error answer is still an envelope.
  download(path: string, params?: Params): Promise<{ blob: Blob; filename: string }>
}

export function createClient(hooks: ClientHooks, fetchImpl: Fetch = (i, init) => fetch(i, init)): Client {
  async function send(method: string, path: string, opts: CallOptions): Promise<Response> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    const auth = opts.auth !== false
    const token = auth ? hooks.token() : null
    if (token) headers.Authorization = `Bearer ${token}`
    let body: string | undefined
    if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(opts.body)
    }
    try {
      return await fetchImpl(path + query(opts.params), { method, headers, body, signal: opts.signal, credentials: 'same-origin' })
    } catch (e) {
      if (e instanceof DOMException && e.name === 'AbortError') throw e
      throw new ApiError({ status: 0, code: 0, tip: networkTip, msg: String(e), kind: 'network' })
    }
  }

  // attempt sends once and reads the answer with read; a refusal goes
  // through the 401 hook.
  async function attempt<T>(method: string, path: string, opts: CallOptions, read: (res: Response) => Promise<T>): Promise<T> {
    const res = await send(method, path, opts)
    try {
      return await read(res)
    } catch (e) {
      if (e instanceof ApiError && e.status === 401 && opts.auth !== false) hooks.onUnauthorized(e)
      throw e
    }
  }

  async function withStepUp<T>(method: string, path: string, opts: CallOptions, read: (res: Response) => Promise<T>): Promise<T> {
    try {
      return await attempt(method, path, opts, read)
    } catch (e) {
      if (!(e instanceof ApiError) || !e.needsStepUp || opts.stepUp === false || opts.auth === false) throw e
      if (!(await hooks.stepUp(e))) throw e
      return attempt(method, path, opts, read) // once: a second refusal is the answer
    }
  }

  const readJSON = async <T>(res: Response): Promise<T> => unwrap<T>(res.status, await res.text())
  const readFile = async (res: Response): Promise<{ blob: Blob; filename: string }> => {
    const type = res.headers.get('Content-Type') ?? ''
    if (!res.ok || type.includes('application/json')) return unwrap(res.status, await res.text())
    const cd = res.headers.get('Content-Disposition') ?? ''
    const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd)
    return { blob: await res.blob(), filename: m ? decodeURIComponent(m[1]) : 'download' }
  }

  const client: Client = {
    call: <T>(method: string, path: string, opts: CallOptions = {}) => withStepUp<T>(method, path, opts, readJSON<T>),
    get: (path, params, opts = {}) => client.call('GET', path, { ...opts, params }),
    post: (path, body = {}, opts = {}) => client.call('POST', path, { ...opts, body }),
    del: (path, opts = {}) => client.call('DELETE', path, opts),
    download: (path, params) => withStepUp('GET', path, { params }, readFile),
  }
  return client
}
