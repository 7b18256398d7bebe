// backpack (/mine/backpack): the user's movie coupons (GET
// /api/app/backpack) in three tabs, unused, used and expired; the tab sits
// in ?tab= so back and a shared link keep it.
import { useQuery } from '@tanstack/react-query'
import { Link, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { getBackpack, purchaseKeys } from '@/lib/purchase'
import type { CouponPosition } from '@/lib/user'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { shanghaiDate } from '@/features/wallet/result'
import styles from './Pay.module.css'

const TABS: CouponPosition[] = ['unused', 'used', 'expired']

export default function BackpackPage() {
  const token = useUserStore((s) => s.token)
  const [params, setParams] = useSearchParams()
  const raw = params.get('tab')
  const tab: CouponPosition = TABS.includes(raw as CouponPosition) ? (raw as CouponPosition) : 'unused'
  const q = useQuery({ queryKey: purchaseKeys.backpack(token), queryFn: getBackpack, enabled: token != null })
  const group = q.data?.find((g) => g.position === tab)
  const coupons = (group?.coupons ?? []).filter((c) => c.count > 0)

  let body
  if (token == null) body = <StateView kind="empty" title={t('mineVideos.signIn')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else if (coupons.length === 0) body = <StateView kind="empty" title={t(`backpack.empty.${tab}`)} message={tab === 'unused' ? t('backpack.hint') : undefined} />
  else {
    body = (
      <ul className={styles.coupons} data-testid="coupons">
        {coupons.map((c) => (
          <li key={c.id} className={`${styles.coupon} ${tab === 'unused' ? '' : styles.couponOff}`} data-testid="coupon">
            <div className={styles.couponMain}>
              <p className={styles.couponName}>{c.name}</p>
              {c.expiresAt && <p className={styles.muted}>{t('backpack.until', { date: shanghaiDate(c.expiresAt) })}</p>}
            </div>
            <span className={styles.couponCount} data-testid="coupon-count">
              {t('backpack.count', { n: c.count })}
            </span>
          </li>
        ))}
      </ul>
    )
  }

  return (
    <div className={styles.page} data-testid="backpack-page">
      <NavBar title={t('route.backpack.title')} back="/mine" />
      <main className={styles.body}>
        <div className={styles.tabs} role="tablist" aria-label={t('route.backpack.title')}>
          {TABS.map((k) => (
            <button
              key={k}
              type="button"
              role="tab"
              aria-selected={tab === k}
              className={`${styles.tab} ${tab === k ? styles.tabOn : ''}`}
              onClick={() => setParams(k === 'unused' ? {} : { tab: k }, { replace: true })}
              data-testid="backpack-tab"
              data-tab={k}
            >
              {t(`backpack.${k}`)}
            </button>
          ))}
        </div>
        <PullRefresh onRefresh={() => q.refetch()}>
          <div role="tabpanel">{body}</div>
        </PullRefresh>
        {tab === 'unused' && coupons.length > 0 && (
          <p className={`${styles.muted} ${styles.hint}`}>
            {t('backpack.hint')}{' '}
            <Link to="/mine/vipcenter" className={styles.inlineLink}>
              {t('route.vipcenter.title')}
            </Link>
          </p>
        )}
      </main>
    </div>
  )
}
