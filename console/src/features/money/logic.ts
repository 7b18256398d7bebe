// The money pages' small rules, kept apart from the components so they
// are tested without a browser.
import type { MessageKey } from '@/i18n'
import type { Withdrawal } from './api'

// stateLabel: a pending withdrawal with a first approval is 待复核 (it
// waits for a different operator), otherwise its status.
export function stateLabel(w: Pick<Withdrawal, 'status' | 'awaitingSecond'>): MessageKey {
  if (w.awaitingSecond && w.status === 'pending') return 'money.w.awaiting'
  return `money.w.${w.status}` as MessageKey
}

export const stateColor = (w: Pick<Withdrawal, 'status' | 'awaitingSecond'>): string =>
  w.awaitingSecond && w.status === 'pending' ? 'orange' : w.status === 'paid' ? 'green' : w.status === 'rejected' ? 'red' : 'gold'

// accountText is the payee in one line: the bank, holder and full card
// number, or the USDT network and address.
export const accountText = (w: Pick<Withdrawal, 'account'>): string =>
  w.account.actType === 2 ? `USDT ${w.account.network} ${w.account.number}` : `${w.account.bankName} ${w.account.holder} ${w.account.number}`

// pendingOnly keeps the order numbers a bulk approval may send: pending
// rows of the page on screen, at most 100 (the server's bound).
export function pendingOnly(selected: readonly string[], rows: readonly Pick<Withdrawal, 'orderNo' | 'status'>[] | undefined): string[] {
  const pending = new Set((rows ?? []).filter((r) => r.status === 'pending').map((r) => r.orderNo))
  return selected.filter((no) => pending.has(no)).slice(0, 100)
}

// who names an operator: their name, else their number.
export const who = (name: string, id: number): string => (name ? `${name} (#${id})` : `#${id}`)
