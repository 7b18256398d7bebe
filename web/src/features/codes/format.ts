// Redemption codes as people type them: 12 characters of an alphabet with
// no 0/O/1/I/L (docs/api.md, *Redemption codes*), shown XXXX-XXXX-XXXX.
// The server normalises the same way; this only helps the typing.

export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ'
export const CODE_LEN = 12

// normalizeCode keeps what may be part of a code: upper-cased, without
// spaces, dashes or anything else, cut at 12 characters. Letters the
// alphabet leaves out (O, I, L, 0, 1) are kept so the server, not a silent
// rewrite, says the code is wrong.
export function normalizeCode(input: string): string {
  return input
    .toUpperCase()
    .replace(/[^0-9A-Z]/g, '')
    .slice(0, CODE_LEN)
}

// formatCode groups what was typed by four: "abcd efgh" -> "ABCD-EFGH".
export function formatCode(input: string): string {
  const c = normalizeCode(input)
  return c.match(/.{1,4}/g)?.join('-') ?? ''
}

// codeProblem says why a code cannot be sent yet, or null when it can:
// 'short' (fewer than 12 characters) or 'chars' (a character that no code
// holds, such as O or 1).
export function codeProblem(input: string): 'short' | 'chars' | null {
  const c = normalizeCode(input)
  for (const ch of c) if (!CODE_ALPHABET.includes(ch)) return 'chars'
  return c.length < CODE_LEN ? 'short' : null
}

export interface Reward {
  coins: number
  vipLevel: number
  vipDays: number
  coupons: number
}

// rewardParts lists what a reward holds, each part once, in a fixed order.
export type RewardPart =
  | { kind: 'coins'; n: number }
  | { kind: 'vip'; level: number; days: number }
  | { kind: 'coupons'; n: number }

export function rewardParts(r: Reward): RewardPart[] {
  const out: RewardPart[] = []
  if (r.coins > 0) out.push({ kind: 'coins', n: r.coins })
  if (r.vipDays > 0) out.push({ kind: 'vip', level: r.vipLevel, days: r.vipDays })
  if (r.coupons > 0) out.push({ kind: 'coupons', n: r.coupons })
  return out
}

// recordTime shows a redemption's time as Shanghai wall-clock time,
// "2026-11-23 20:05", whatever the phone's own zone.
export function recordTime(unix: number): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Shanghai',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(unix * 1000))
  const p = (type: string) => parts.find((x) => x.type === type)?.value ?? ''
  return `${p('year')}-${p('month')}-${p('day')} ${p('hour')}:${p('minute')}`
}
