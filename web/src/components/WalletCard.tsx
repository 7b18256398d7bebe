// The wallet card on Mine: coins and income (with what pending withdrawals
// hold), and the ways in: top up, VIP centre, withdraw, records, the coupon
// backpack.
// It refetches when money moves (wallet.changed, a purchase: app/realtime).
import { Link } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { t } from '@/i18n'
import { getWalletSummary } from '@/lib/purchase'
import { walletKeys, yuan } from '@/lib/wallet'
import styles from './WalletCard.module.css'

const LINKS = [
  { to: '/mine/usercoinchongzhi', label: 'wallet.topUp', testid: 'wallet-topup' },
  { to: '/mine/vipcenter', label: 'wallet.vip', testid: 'wallet-vip' },
  { to: '/mine/withdraw', label: 'wallet.withdraw', testid: 'wallet-withdraw' },
  { to: '/mine/usercoinrecords', label: 'wallet.records', testid: 'wallet-records' },
  { to: '/mine/backpack', label: 'wallet.backpack', testid: 'wallet-backpack' },
] as const

export function WalletCard({ token }: { token: string | null }) {
  const q = useQuery({ queryKey: walletKeys.summary(token), queryFn: getWalletSummary, enabled: token != null })
  const w = q.data
  let figures
  if (token == null) {
    figures = <p className={styles.note}>{t('wallet.signIn')}</p>
  } else if (q.isError && !w) {
    figures = (
      <button type="button" className={styles.retry} onClick={() => void q.refetch()} data-testid="wallet-retry">
        {t('wallet.loadFailed')}
      </button>
    )
  } else {
    figures = (
      <div className={styles.figures} aria-busy={q.isPending}>
        <Link to="/mine/usercoinrecords" className={styles.figure}>
          <b data-testid="wallet-coins">{w ? w.coins : '—'}</b>
          <span>{t('wallet.coins')}</span>
        </Link>
        <Link to="/mine/userincomerecord" className={styles.figure}>
          <b data-testid="wallet-income">{w ? yuan(w.income) : '—'}</b>
          <span>
            {t('wallet.income')}
            {w && w.incomeFrozen > 0 && <em className={styles.frozen}> · {t('wallet.frozen', { n: yuan(w.incomeFrozen) })}</em>}
          </span>
        </Link>
      </div>
    )
  }
  return (
    <section className={styles.card} aria-labelledby="wallet-title" data-testid="wallet-card">
      <h2 id="wallet-title" className={styles.title}>
        {t('wallet.card')}
      </h2>
      {figures}
      <nav className={styles.links}>
        {LINKS.map((l) => (
          <Link key={l.to} to={l.to} className={styles.link} data-testid={l.testid}>
            {t(l.label)}
          </Link>
        ))}
      </nav>
    </section>
  )
}
