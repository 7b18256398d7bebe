// userrecords (/mine/userbuyrecord): the user's top-up and VIP orders
// (GET mine/rchg/order), newest first, with what each bought, the amount
// and the state; an unpaid order still within its time offers its pay page.
import { t } from '@/i18n'
import { yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useOrders } from '@/features/withdraw/api/records'
import { StatusChip } from '@/features/withdraw/components/AccountLine'
import { RecordList } from '@/features/withdraw/components/RecordList'
import { shortTime } from '@/features/withdraw/format'
import type { Order } from '@/features/withdraw/types'
import styles from '@/features/withdraw/components/ui.module.css'

const STATUS = {
  pending: 'rec.order.pending',
  paid: 'rec.order.paid',
  cancelled: 'rec.order.cancelled',
  expired: 'rec.order.expired',
  refunded: 'rec.order.refunded',
} as const

// safePayUrl: only an http(s) or same-site URL becomes a link.
export function safePayUrl(url: string): string | null {
  if (url.startsWith('/') && !url.startsWith('//')) return url
  return /^https?:\/\//i.test(url) ? url : null
}

function Line({ o }: { o: Order }) {
  const what =
    o.productType === 'coins'
      ? [t('rec.order.coins', { n: o.coins }), o.bonus > 0 ? t('rec.order.bonus', { n: o.bonus }) : ''].filter(Boolean).join(' · ')
      : t('rec.order.vipDays', { level: o.vipLevel === 2 ? t('rec.order.svip') : t('rec.order.vip'), days: o.vipDays })
  const pay = o.status === 'pending' ? safePayUrl(o.payUrl) : null
  return (
    <li className={styles.record} data-testid="rec-order" data-status={o.status}>
      <div className={styles.recordMain}>
        <p className={styles.recordTitle}>{o.title}</p>
        <p className={styles.recordSub}>{what}</p>
        <p className={styles.recordSub}>{shortTime(o.createdAt)}</p>
        <p className={styles.recordSub}>{t('wd.orderNo', { no: o.orderNo })}</p>
      </div>
      <div className={styles.recordSide}>
        <p className={styles.amount}>¥{yuan(o.amount)}</p>
        <StatusChip status={o.status} label={t(STATUS[o.status] ?? 'rec.order.pending')} />
        {pay && (
          <a href={pay} className={styles.inline} data-testid="rec-pay">
            {t('rec.order.pay')}
          </a>
        )}
      </div>
    </li>
  )
}

export default function UserBuyRecordPage() {
  const token = useUserStore((s) => s.token)
  const q = useOrders(token)
  return (
    <div className={styles.page} data-testid="rec-orders-page">
      <NavBar title={t('route.userrecords.title')} back="/mine" />
      <main className={styles.listWrap}>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div style={{ paddingTop: 12, minHeight: '60vh' }}>
            {token == null ? (
              <StateView kind="empty" title={t('wd.signIn')} />
            ) : (
              <RecordList q={q} empty={t('rec.emptyOrders')} item={(o) => <Line key={o.orderNo} o={o} />} testid="rec-orders" />
            )}
          </div>
        </PullRefresh>
      </main>
    </div>
  )
}
