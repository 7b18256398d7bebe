// Pure helpers of the earnings pages (promoter commission and creator
// earnings, docs/api.md *Earnings*): how rates, masked people and order
// numbers, and the days of a period are shown. Money is integer cents,
// shown with lib/wallet's yuan; rates are basis points (10000 = 100%).

export type EarningState = 'pending' | 'settled' | 'reversed'
export const EARNING_STATES: readonly EarningState[] = ['pending', 'settled', 'reversed']

// percent shows basis points as a percentage without a float: 1000 ->
// "10%", 250 -> "2.5%", 5 -> "0.05%", 0 -> "0%".
export function percent(bps: number): string {
  const n = Math.max(0, Math.trunc(bps))
  const whole = Math.floor(n / 100)
  const frac = String(n % 100).padStart(2, '0').replace(/0+$/, '')
  return frac ? `${whole}.${frac}%` : `${whole}%`
}

// maskName is the contract's mask of a person's name: the first and last
// character with ** between ("a**e"), one character "*". The server sends
// names masked already; the page masks again so that a name can never show
// whole on a promoter's screen, and masking a masked name changes nothing.
// Characters, not UTF-16 units: an emoji or a CJK extension character is
// one character.
export function maskName(name: string): string {
  const cs = Array.from(name.trim())
  if (cs.length === 0) return ''
  if (cs.length === 1) return '*'
  return `${cs[0]}**${cs[cs.length - 1]}`
}

// maskOrderNo is the contract's mask of an order number: the first and
// last 4 characters with **** between. A number of 8 characters or fewer
// keeps no more than its first 2 and last 2, so the mask never shows it
// whole. Idempotent like maskName.
export function maskOrderNo(no: string): string {
  const cs = Array.from(no.trim())
  if (cs.length === 0) return ''
  if (cs.length <= 4) return '****'
  const k = cs.length > 8 ? 4 : 2
  return `${cs.slice(0, k).join('')}****${cs.slice(-k).join('')}`
}

// earningState narrows what the server sent to a state the pages know;
// anything else reads as pending (not yet money), never as settled.
export function earningState(s: unknown): EarningState {
  return s === 'settled' || s === 'reversed' ? s : 'pending'
}

// isEarningState: a filter value (?state=) the list can ask for.
export function isEarningState(s: unknown): s is EarningState {
  return typeof s === 'string' && (EARNING_STATES as readonly string[]).includes(s)
}
