// withdrawdetail (/mine/withdraw/detail): the user's withdrawals, newest
// first, each with its state (审核中 / 已到账 / 已驳回 and the operator's
// reason), amount, fee, net and the account it goes to.
import { t } from '@/i18n'
import { yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useWithdrawals } from '@/features/withdraw/api/withdraw'
import { accountMain, accountSub, StatusChip } from '@/features/withdraw/components/AccountLine'
import { GuestGate, needsRegistration } from '@/features/withdraw/components/GuestGate'
import { RecordList } from '@/features/withdraw/components/RecordList'
import { shortTime } from '@/features/withdraw/format'
import type { Withdrawal } from '@/features/withdraw/types'
import styles from '@/features/withdraw/components/ui.module.css'

const STATUS = { pending: 'wd.status.pending', paid: 'wd.status.paid', rejected: 'wd.status.rejected' } as const

function Line({ w }: { w: Withdrawal }) {
  return (
    <li className={styles.record} data-testid="wd-order" data-order={w.orderNo} data-status={w.status}>
      <div className={styles.recordMain}>
        <p className={styles.recordTitle}>
          {accountMain(w.account)} <span className={styles.accountSub}>{accountSub(w.account)}</span>
        </p>
        <p className={styles.recordSub}>{t('wd.feeLine', { fee: yuan(w.fee), net: yuan(w.net) })}</p>
        <p className={styles.recordSub}>{shortTime(w.createdAt)}</p>
        <p className={styles.recordSub}>{t('wd.orderNo', { no: w.orderNo })}</p>
        {w.status === 'rejected' && w.reason && (
          <p className={styles.reason} data-testid="wd-reason">
            {t('wd.reason', { r: w.reason })}
          </p>
        )}
      </div>
      <div className={styles.recordSide}>
        <p className={styles.amount}>¥{yuan(w.amount)}</p>
        <StatusChip status={w.status} label={t(STATUS[w.status] ?? 'wd.status.pending')} />
      </div>
    </li>
  )
}

export default function WithdrawDetailPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const q = useWithdrawals(isGuest ? null : token)

  const body =
    token == null ? (
      <StateView kind="empty" title={t('wd.signIn')} />
    ) : needsRegistration(isGuest, q.error) ? (
      <GuestGate />
    ) : (
      <RecordList q={q} empty={t('wd.emptyOrders')} item={(w) => <Line key={w.orderNo} w={w} />} testid="wd-orders" />
    )

  return (
    <div className={styles.page} data-testid="wd-detail">
      <NavBar title={t('route.withdrawdetail.title')} back="/mine/withdraw" />
      <main className={styles.listWrap}>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div style={{ paddingTop: 12, minHeight: '60vh' }}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
