// Error-correction level for the QR component (spec §5): L, M, Q or H, and L
// for anything else, including lowercase and the long names, so a bad
// remote setting never breaks rendering.
export type QrLevel = 'L' | 'M' | 'Q' | 'H'

const LEVELS: readonly string[] = ['L', 'M', 'Q', 'H']

export function qrLevel(x: unknown): QrLevel {
  return typeof x === 'string' && LEVELS.includes(x) ? (x as QrLevel) : 'L'
}
