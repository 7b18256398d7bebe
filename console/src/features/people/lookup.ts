import type { Lookup } from './api'

// parseLookup reads the search box: by uid it must be a positive whole
// number; by account anything non-blank (the server matches it exactly,
// ignoring case).
export function parseLookup(by: 'uid' | 'account', text: string): Lookup | 'bad-uid' | null {
  const s = text.trim()
  if (s === '') return null
  if (by === 'account') return { by, account: s }
  if (!/^\d{1,15}$/.test(s) || Number(s) < 1) return 'bad-uid'
  return { by, uid: Number(s) }
}
