// Times from the server come as RFC 3339 text or unix seconds; the console
// shows them in the browser's zone as YYYY-MM-DD HH:mm:ss.
export type Timestamp = string | number

// toMillis: unix seconds (below 1e12), unix milliseconds, or date text;
// null for anything unreadable.
export function toMillis(t: Timestamp | null | undefined): number | null {
  if (t === null || t === undefined || t === '') return null
  if (typeof t === 'number') return Number.isFinite(t) ? (t < 1e12 ? t * 1000 : t) : null
  if (/^\d+$/.test(t)) return toMillis(Number(t))
  const ms = Date.parse(t)
  return Number.isNaN(ms) ? null : ms
}

const pad = (n: number) => String(n).padStart(2, '0')

export function formatTime(t: Timestamp | null | undefined): string {
  const ms = toMillis(t)
  if (ms === null) return '—'
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

// toRFC3339 is a filter bound sent to the server (the audit's from/to).
export function toRFC3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z')
}
