// Time and number display. Relative time follows spec §4 (Chinese units,
// Asia/Shanghai calendar) with DESIGN departure 4: past 12 months it says
// years. Strings come from i18n keys time.*, so en works too.
import { getLang, translate, type Lang, type MessageKey } from '@/i18n'

// Asia/Shanghai has been UTC+8 without daylight saving since 1991, so a
// fixed offset gives its wall clock without Intl time-zone data.
const SHANGHAI_OFFSET_MS = 8 * 3600 * 1000

// msg speaks an explicitly requested language, else the running one (en
// only once loadLang('en') has installed it).
function msg(key: MessageKey, vars: Record<string, string | number>, lang: Lang = getLang()): string {
  return translate(lang, key, vars)
}

type When = Date | number | string

// toMs: numbers are epoch milliseconds (Date.now()); strings are what the
// API sends (RFC 3339).
function toMs(d: When | null | undefined): number {
  if (d == null || d === '') return NaN
  if (typeof d === 'number') return d
  if (typeof d === 'string') return Date.parse(d)
  return d.getTime()
}

// monthsBetween counts whole calendar months from a to b (a <= b) on the
// Shanghai wall clock: 1 Feb 01:00 to 1 Mar 01:00 is one month, and
// 31 Jan to 28 Feb is not yet one.
function monthsBetween(a: number, b: number): number {
  const A = new Date(a + SHANGHAI_OFFSET_MS)
  const B = new Date(b + SHANGHAI_OFFSET_MS)
  let months = (B.getUTCFullYear() - A.getUTCFullYear()) * 12 + (B.getUTCMonth() - A.getUTCMonth())
  const restA = A.getTime() - Date.UTC(A.getUTCFullYear(), A.getUTCMonth(), 1)
  const restB = B.getTime() - Date.UTC(B.getUTCFullYear(), B.getUTCMonth(), 1)
  if (restB < restA) months--
  return months
}

// relativeTime says how long ago `date` was: 刚刚 for the future and the
// current second, then seconds, minutes, hours, days, months, years. An
// unreadable date gives '' so a page shows nothing rather than "NaN".
export function relativeTime(date: When | null | undefined, now: When = Date.now(), lang?: Lang): string {
  const then = toMs(date)
  const at = toMs(now)
  if (!Number.isFinite(then) || !Number.isFinite(at)) return ''
  const diff = at - then
  if (diff < 1000) return msg('time.justNow', {}, lang)
  const s = Math.floor(diff / 1000)
  if (s < 60) return msg('time.seconds', { n: s }, lang)
  const m = Math.floor(s / 60)
  if (m < 60) return msg('time.minutes', { n: m }, lang)
  const h = Math.floor(m / 60)
  if (h < 24) return msg('time.hours', { n: h }, lang)
  const months = monthsBetween(then, at)
  if (months < 1) return msg('time.days', { n: Math.floor(h / 24) }, lang)
  if (months < 12) return msg('time.months', { n: months }, lang)
  return msg('time.years', { n: Math.floor(months / 12) }, lang)
}

const pad2 = (n: number) => String(n).padStart(2, '0')

// formatDuration: a video length in seconds as mm:ss, or h:mm:ss from one
// hour. Fractions are dropped; negative or unknown lengths show 00:00.
export function formatDuration(seconds: number | null | undefined): string {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) return '00:00'
  const total = Math.floor(seconds)
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return h > 0 ? `${h}:${pad2(m)}:${pad2(s)}` : `${pad2(m)}:${pad2(s)}`
}

// oneDecimal truncates n/unit to one decimal and drops a trailing .0.
// Truncation, not rounding: 99,999 must not read "10万" and 9,999.96万 must
// not read "10000万" while the next unit says 1亿.
function oneDecimal(n: number, unit: number): string {
  return String(Math.floor(n / (unit / 10)) / 10)
}

// formatCount: play and like counts. zh: 9999, 1.2万, 3.4亿; en: 999,
// 12.3k, 1.2M, 3B. Negative or unknown counts show 0.
export function formatCount(n: number | null | undefined, lang: Lang = getLang()): string {
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0) return '0'
  const v = Math.floor(n)
  if (lang === 'en') {
    if (v < 1e3) return String(v)
    if (v < 1e6) return msg('time.countK', { n: oneDecimal(v, 1e3) }, lang)
    if (v < 1e9) return msg('time.countM', { n: oneDecimal(v, 1e6) }, lang)
    return msg('time.countB', { n: oneDecimal(v, 1e9) }, lang)
  }
  if (v < 1e4) return String(v)
  if (v < 1e8) return msg('time.countWan', { n: oneDecimal(v, 1e4) }, lang)
  return msg('time.countYi', { n: oneDecimal(v, 1e8) }, lang)
}

// shortTime: "MM-DD HH:mm" in the viewer's time, for record lines; the
// year too when it is not this year's.
export function shortTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const p = (n: number) => String(n).padStart(2, '0')
  const md = `${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`
  return d.getFullYear() === now.getFullYear() ? md : `${d.getFullYear()}-${md}`
}
