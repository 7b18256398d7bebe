// The account certificate's link (docs/api.md, *Account certificate*): what
// the QR code holds is {origin}/mine/login#uid=<uid>&qrCnt=<qrCnt>. The
// credential rides in the fragment, which the browser never sends to a
// server nor puts in a Referer; a link with a query string instead
// (/mine/login?qrCnt=..&uid=..) is read too. The server parses the same
// shape from an uploaded picture (internal/account/certificate.go).

export interface CertCredential {
  uid: number
  qrCnt: string
}

// A credential is 43 base64url characters (32 bytes, no padding).
const QRCNT = /^[A-Za-z0-9_-]{43}$/

export function isQrCnt(x: unknown): x is string {
  return typeof x === 'string' && QRCNT.test(x)
}

function parseUID(x: string | null): number | null {
  if (x == null || !/^[1-9][0-9]{0,15}$/.test(x)) return null
  const n = Number(x)
  return Number.isSafeInteger(n) ? n : null
}

// certificateLink is the QR content for uid's credential on this origin.
export function certificateLink(origin: string, cred: CertCredential): string {
  const params = new URLSearchParams({ uid: String(cred.uid), qrCnt: cred.qrCnt })
  return `${origin.replace(/\/+$/, '')}/mine/login#${params.toString()}`
}

function fromParams(raw: string): CertCredential | null {
  const p = new URLSearchParams(raw.replace(/^[#?]/, ''))
  const uid = parseUID(p.get('uid'))
  const qrCnt = p.get('qrCnt')
  return uid != null && isQrCnt(qrCnt) ? { uid, qrCnt } : null
}

// credentialFromLocation reads a credential carried by the page's own
// address (fragment first, then query), or null.
export function credentialFromLocation(loc: { search: string; hash: string }): CertCredential | null {
  return fromParams(loc.hash) ?? fromParams(loc.search)
}

// hasCredentialParams says whether the address mentions a credential at
// all, valid or not, so the page can clear it from the address bar.
export function hasCredentialParams(loc: { search: string; hash: string }): boolean {
  return /(^|[#?&])qrCnt=/.test(loc.hash) || /(^|[#?&])qrCnt=/.test(loc.search)
}

// parseCertificateLink reads the text of a QR code: a link to /mine/login
// on any origin carrying uid and qrCnt, or null.
export function parseCertificateLink(text: string): CertCredential | null {
  let u: URL
  try {
    u = new URL(text.trim())
  } catch {
    return null
  }
  if (!/\/mine\/login\/?$/.test(u.pathname)) return null
  return credentialFromLocation({ search: u.search, hash: u.hash })
}

// Picture files the server reads; anything else is refused before upload.
// An empty type (some browsers for some files) is left to the server.
const MAX_BYTES = 5 * 1024 * 1024

export type PictureProblem = 'tooLarge' | 'notImage' | 'empty' | null

export function pictureProblem(file: { size: number; type: string }): PictureProblem {
  if (file.size === 0) return 'empty'
  if (file.size > MAX_BYTES) return 'tooLarge'
  if (file.type !== '' && !file.type.startsWith('image/')) return 'notImage'
  return null
}

// certificateFileName names the saved picture.
export function certificateFileName(uid: number): string {
  return `prima-account-${uid}.png`
}

// certificateDate is the day a certificate was made, YYYY-MM-DD in
// Asia/Shanghai (times are shown there), or '' for a bad date.
export function certificateDate(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  // Assembled from parts: a locale's own order (en-CA is Y-M-D in Chromium
  // but M/D/Y in WebKitGTK's ICU) is not to be trusted for a fixed format.
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Shanghai', year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(d)
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')}`
}
