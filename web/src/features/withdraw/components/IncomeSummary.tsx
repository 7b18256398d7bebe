// The top of the income pages (usershouyimx, userincomerecord): what can be
// withdrawn now and what is still pending (commission and creator earnings
// wait settleDays after the sale before they become income), the refund
// debt when there is one (later earnings pay it off first), and the ways to
// the commission and creator lists and to withdrawing. A guest has no
// earnings (403): the card is left out and the page goes on.
import { Link } from 'react-router'
import { t } from '@/i18n'
import '@/i18n/earn'
import { ApiError } from '@/lib/api'
import { yuan } from '@/lib/wallet'
import { MoneyCard } from '@/components/MoneyCard'
import { StateView } from '@/components/StateView'
import { useIncomeSummary } from '@/features/withdraw/api/records'
import styles from './ui.module.css'

export function IncomeSummaryCard({ token, isGuest, month = '' }: { token: string | null; isGuest: boolean; month?: string }) {
  const q = useIncomeSummary(month, isGuest ? null : token)
  if (token == null || isGuest) return null
  if (q.isPending) return <div className={`${styles.summarySkeleton} prima-skeleton`} data-testid="income-summary-loading" />
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 403) return null
    return <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  }
  const s = q.data
  return (
    <MoneyCard
      testid="income-summary"
      title={t('earn.income')}
      figures={[
        { label: t('earn.withdrawable'), cents: s.withdrawableCents, testid: 'income-withdrawable', big: true },
        { label: t('earn.pending'), cents: s.pendingCents, testid: 'income-pending' },
      ]}
      foot={
        <>
          {s.debtCents > 0 && (
            <p className={styles.debt} data-testid="income-debt" data-cents={s.debtCents}>
              {t('earn.debt', { v: yuan(s.debtCents) })}
            </p>
          )}
          <Link to="/mine/commissions" data-testid="income-commissions">
            {t('earn.commissionList')}
          </Link>
          <Link to="/mine/creatorearnings" data-testid="income-creator">
            {t('route.creatorearnings.title')}
          </Link>
          <Link to="/mine/withdraw" data-testid="income-withdraw">
            {t('route.withdraw.title')}
          </Link>
        </>
      }
    />
  )
}
