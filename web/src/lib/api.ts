// The API client (DESIGN "API conventions", spec §6-§8, api-contract).
//
// - Base URL '' means this origin; setBaseURL switches to another API line.
// - GET/DELETE send query parameters (null/undefined dropped); POST/PUT send
//   a JSON object. (The observed client wrapped payloads in an encoded
//   `data` field and decrypted `hash` responses; Prima uses TLS instead,
//   DESIGN departure 3.)
// - Every request carries X-App-Client (device id, version, platform, h5)
//   and, when signed in, Authorization: Bearer <token>.
// - The envelope {code, tip, msg, data} is unwrapped: code 200 resolves with
//   data, anything else rejects with an ApiError whose tip is what the user
//   is shown: the server's tip when it sent one, else the status message of
//   spec §8, else a generic network message.
// - Errors are the caller's to show: most pages show them in place (an
//   error state, a field's message). A call that passed { toast: true }
//   also toasts the tip, once however many callers shared the request.
// - Identical requests in flight at the same time go out once and share the
//   answer (the observed client cancelled duplicates instead, which made one
//   of the callers fail).
// - A 401 on a request that carried a token means the session is gone: the
//   handler registered with setUnauthorizedHandler runs (the app logs out).
//   A 401 without a token (wrong password on login/h5, which callers send
//   with noToken) is just an error.
// - While the guest sign-in is under way (setSessionPending), a call that
//   would carry a token but has none yet waits for the sign-in and then
//   goes with the token it brought: a first visit draws its first screen
//   from public answers before the guest is signed in, and nothing personal
//   is asked for anonymously in the meantime. Calls marked public (the
//   answer is the same for everyone) go at once.
import { t } from '@/i18n'
import { deviceId } from './device'
import { statusMessage } from './http'
import { currentPlatform } from './platform'
import { getToken } from './storage'
import { toast } from './toast'

export const APP_VERSION = '1.1.3'
// The spec's request timeout (§9). Offline is detected at once (lib/network.ts), so a
// long timeout only costs waiting on a network that is up but very slow.
export const REQUEST_TIMEOUT_MS = 30_000

// kind says where the failure happened: business (2xx with code != 200),
// http (non-2xx status), network (no response), timeout, parse (a 2xx that
// is not an envelope).
export type ApiErrorKind = 'business' | 'http' | 'network' | 'timeout' | 'parse'

export class ApiError extends Error {
  readonly code: number // envelope code, else the HTTP status, else 0
  readonly tip: string // the message for the user
  readonly msg: string // detail for developers
  readonly status: number // HTTP status; 0 when no response arrived
  readonly kind: ApiErrorKind

  constructor(init: { code: number; tip: string; msg: string; status: number; kind: ApiErrorKind }) {
    super(init.msg || init.tip)
    this.name = 'ApiError'
    this.code = init.code
    this.tip = init.tip
    this.msg = init.msg
    this.status = init.status
    this.kind = init.kind
  }
}

export interface RequestOptions {
  toast?: boolean // toast the error's tip (off: the caller shows the error itself)
  noToken?: boolean // do not send the session token
  // public: the answer does not depend on who asks (configuration, module
  // lists, home's sections): it goes at once even while a guest sign-in is
  // under way, with whatever token there is.
  public?: boolean
  timeout?: number // milliseconds, default REQUEST_TIMEOUT_MS (30 s)
  // passwordCheck: the body carries the user's password for a fresh check
  // (adding a payout account, withdrawing). Such a call answers a wrong
  // password with 401 while the session is fine, so a 401 here is shown as
  // the call's error and does not end the session.
  passwordCheck?: boolean
  // signal cancels the request (a stale suggestion while the user types);
  // a request with a signal is never shared with another caller.
  signal?: AbortSignal
}

export type Params = Record<string, unknown>
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

interface Envelope {
  code: number
  tip?: string | null
  msg?: string | null
  data?: unknown
}

let baseURL = ''

// setBaseURL: '' is this origin; a trailing slash is dropped so paths that
// start with '/' join cleanly.
export function setBaseURL(url: string): void {
  baseURL = url.trim().replace(/\/+$/, '')
}

export function getBaseURL(): string {
  return baseURL
}

let unauthorized: ((err: ApiError) => void) | null = null

export function setUnauthorizedHandler(fn: ((err: ApiError) => void) | null): void {
  unauthorized = fn
}

function paramValue(v: unknown): string {
  if (v instanceof Date) return v.toISOString()
  if (typeof v === 'object') return JSON.stringify(v)
  return String(v)
}

// buildQuery encodes params with keys sorted, so the same params in another
// order make the same URL (and share an in-flight request). Arrays repeat
// the key; null and undefined are dropped, also inside arrays.
export function buildQuery(params?: Params | null): string {
  if (!params) return ''
  const q = new URLSearchParams()
  for (const key of Object.keys(params).sort()) {
    const v = params[key]
    if (v == null) continue
    if (Array.isArray(v)) {
      for (const item of v) if (item != null) q.append(key, paramValue(item))
    } else q.append(key, paramValue(v))
  }
  const s = q.toString()
  return s ? '?' + s : ''
}

export function clientHeader(): string {
  return `devID=${deviceId()};ver=${APP_VERSION};dev=${currentPlatform()};h5=1`
}

function isEnvelope(v: unknown): v is Envelope {
  return typeof v === 'object' && v !== null && typeof (v as Envelope).code === 'number'
}

function nonBlank(s: unknown): string | null {
  return typeof s === 'string' && s.trim() !== '' ? s : null
}

interface Prepared {
  method: Method
  url: string
  headers: Record<string, string>
  body?: string | FormData
  token: string | null
  timeout: number
  signal?: AbortSignal
}

// unwrap turns an answer (status, status text, body) into the envelope's
// data, or throws the ApiError the user is shown. Uploads (lib/upload.ts,
// through XMLHttpRequest for its progress events) read answers the same way.
export function unwrap(status: number, statusText: string, text: string): unknown {
  let parsed: unknown
  try {
    parsed = text === '' ? undefined : JSON.parse(text)
  } catch {
    parsed = undefined
  }
  const env = isEnvelope(parsed) ? parsed : null

  if (!(status >= 200 && status < 300)) {
    throw new ApiError({
      kind: 'http',
      code: env?.code ?? status,
      status,
      tip: nonBlank(env?.tip) ?? statusMessage(status, statusText),
      msg: nonBlank(env?.msg) ?? `HTTP ${status} ${statusText}`.trim(),
    })
  }
  if (!env) {
    throw new ApiError({ kind: 'parse', code: status, status, tip: t('net.badResponse'), msg: 'response is not an envelope' })
  }
  if (env.code !== 200) {
    throw new ApiError({
      kind: 'business',
      code: env.code,
      status,
      tip: nonBlank(env.tip) ?? statusMessage(env.code, ''),
      msg: nonBlank(env.msg) ?? '',
    })
  }
  return env.data ?? null
}

async function send(p: Prepared): Promise<unknown> {
  const ctrl = new AbortController()
  const timer = setTimeout(() => ctrl.abort(), p.timeout)
  const cancel = () => ctrl.abort()
  if (p.signal?.aborted) ctrl.abort()
  p.signal?.addEventListener('abort', cancel)
  const failed = (e: unknown) =>
    p.signal?.aborted
      ? new ApiError({ kind: 'network', code: 0, status: 0, tip: t('net.offline'), msg: 'aborted' })
      : ctrl.signal.aborted
      ? new ApiError({ kind: 'timeout', code: 0, status: 0, tip: t('net.timeout'), msg: `timeout after ${p.timeout} ms` })
      : new ApiError({ kind: 'network', code: 0, status: 0, tip: t('net.offline'), msg: e instanceof Error ? e.message : String(e) })

  let res: Response
  let text: string
  try {
    res = await fetch(p.url, { method: p.method, headers: p.headers, body: p.body, signal: ctrl.signal })
    // The timeout covers the body too: a server that stalls mid-body fails the same way.
    text = await res.text()
  } catch (e) {
    throw failed(e)
  } finally {
    clearTimeout(timer)
    p.signal?.removeEventListener('abort', cancel)
  }

  return unwrap(res.status, res.statusText, text)
}

function quietly(fn: () => unknown): void {
  try {
    fn()
  } catch {
    // see the caller
  }
}

interface InFlight {
  promise: Promise<unknown>
  toast: boolean // true once any caller asked for the toast
}

const inflight = new Map<string, InFlight>()

// The guest sign-in in flight, if any (features/account/session.ts sets it).
let session: Promise<unknown> | null = null

export function setSessionPending(p: Promise<unknown> | null): void {
  session = p
}

function request<T>(method: Method, path: string, payload: unknown, opts: RequestOptions = {}): Promise<T> {
  const waitFor = session
  if (waitFor && !opts.noToken && !opts.public && !getToken()) {
    // Whatever the sign-in ends in, the call then goes as it would have
    // (with the new token, or without one when the sign-in failed).
    return waitFor.then(
      () => requestNow<T>(method, path, payload, opts),
      () => requestNow<T>(method, path, payload, opts),
    )
  }
  return requestNow<T>(method, path, payload, opts)
}

function requestNow<T>(method: Method, path: string, payload: unknown, opts: RequestOptions): Promise<T> {
  const hasBody = method === 'POST' || method === 'PUT'
  const url = baseURL + path + (hasBody ? '' : buildQuery(payload as Params | undefined))
  const token = opts.noToken ? null : getToken()
  const headers: Record<string, string> = { Accept: 'application/json', 'X-App-Client': clientHeader() }
  if (token) headers.Authorization = `Bearer ${token}`
  let body: string | FormData | undefined
  if (hasBody) {
    if (typeof FormData !== 'undefined' && payload instanceof FormData) body = payload
    else {
      // The server decodes a JSON object; an empty call still sends {}.
      body = JSON.stringify(payload ?? {})
      headers['Content-Type'] = 'application/json'
    }
  }

  // Uploads are never merged: two FormData bodies cannot be compared.
  const key = opts.signal ? null : typeof body === 'string' || body === undefined ? `${method} ${url} ${body ?? ''} ${token ?? ''}` : null
  const existing = key ? inflight.get(key) : undefined
  if (existing) {
    if (opts.toast) existing.toast = true
    return existing.promise as Promise<T>
  }

  const entry: InFlight = { toast: !!opts.toast, promise: Promise.resolve() }
  entry.promise = send({ method, url, headers, body, token, timeout: opts.timeout ?? REQUEST_TIMEOUT_MS, signal: opts.signal })
    .catch((err: ApiError) => {
      // Decided when the answer arrives, so a caller that joined late counts.
      // Neither the toast nor the app's handler may replace the ApiError
      // the callers are waiting for.
      if (entry.toast) quietly(() => toast.text(err.tip))
      if (token && !opts.passwordCheck && (err.status === 401 || (err.kind === 'business' && err.code === 401))) quietly(() => unauthorized?.(err))
      throw err
    })
    .finally(() => {
      if (key) inflight.delete(key)
    })
  if (key) inflight.set(key, entry)
  return entry.promise as Promise<T>
}

export const api = {
  get<T>(path: string, params?: Params | null, opts?: RequestOptions): Promise<T> {
    return request<T>('GET', path, params, opts)
  },
  delete<T>(path: string, params?: Params | null, opts?: RequestOptions): Promise<T> {
    return request<T>('DELETE', path, params, opts)
  },
  post<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('POST', path, body, opts)
  },
  put<T>(path: string, body?: unknown, opts?: RequestOptions): Promise<T> {
    return request<T>('PUT', path, body, opts)
  },
}
