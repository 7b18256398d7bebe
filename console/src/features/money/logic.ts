// The money pages' small rules, kept apart from the components so they
// are tested without a browser.
import type { MessageKey, T } from '@/i18n'
import { moneyZh } from '@/i18n/sections/money'
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

// kindLabel names a movement kind in words when the console knows it,
// else shows the kind as the server sent it (a new kind still reads).
export function kindLabel(t: T, kind: string): string {
  const key = `money.kind.${kind}`
  return key in moneyZh ? t(key as MessageKey) : kind
}
