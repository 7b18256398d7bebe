// How a payout account reads in a list: an icon, the masked number or
// address, and the bank and holder or the network.
import type { PayoutAccount } from '@/features/withdraw/types'
import styles from './ui.module.css'

export function accountMain(a: PayoutAccount): string {
  return a.actType === 1 ? a.number : a.address
}

export function accountSub(a: PayoutAccount): string {
  return a.actType === 1 ? `${a.bankName} · ${a.holder}` : `USDT · ${a.network}`
}

export function AccountLine({ account }: { account: PayoutAccount }) {
  const bank = account.actType === 1
  return (
    <>
      <span className={`${styles.accountIcon} ${bank ? '' : styles.usdtIcon}`} aria-hidden="true">
        {bank ? (
          <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8">
            <rect x="2.5" y="5" width="19" height="14" rx="2.5" />
            <path d="M2.5 10h19M6 15h4" />
          </svg>
        ) : (
          '₮'
        )}
      </span>
      <span className={styles.accountText}>
        <span className={styles.accountMain}>{accountMain(account)}</span>
        <span className={styles.accountSub}>{accountSub(account)}</span>
      </span>
    </>
  )
}

export function StatusChip({ status, label }: { status: string; label: string }) {
  return (
    <span className={`${styles.status} ${styles[`st-${status}`] ?? ''}`} data-testid="status-chip" data-status={status}>
      {label}
    </span>
  )
}
