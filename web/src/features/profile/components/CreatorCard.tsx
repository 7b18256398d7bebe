// The creator's earnings on /myhome: shown once my creator application
// (/mine/settled) is approved, or while I have earnings from before. My
// share, what is pending and what has settled into withdrawable income,
// and the way to the list of sales. Nothing for everyone else (and nothing
// while it loads: most people are not creators, so no placeholder either).
import { Link } from 'react-router'
import { t } from '@/i18n'
import '@/i18n/earn'
import { ApiError } from '@/lib/api'
import { percent } from '@/lib/earn'
import { MoneyCard } from '@/components/MoneyCard'
import { StateView } from '@/components/StateView'
import { useCreatorSummary } from '@/features/profile/api/earnings'
import styles from './ui.module.css'

export function CreatorCard({ token, isGuest }: { token: string | null; isGuest: boolean }) {
  const q = useCreatorSummary(isGuest ? null : token)
  if (isGuest || token == null || q.isPending) return null
  if (q.isError) {
    if (q.error instanceof ApiError && q.error.status === 403) return null
    return (
      <div className={styles.earnings}>
        <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
      </div>
    )
  }
  const s = q.data
  if (!s.approved && s.items === 0) return null
  return (
    <div className={styles.earnings}>
      <MoneyCard
        testid="creator-card"
        title={t('earn.creator')}
        badge={<span className={styles.shareBadge}>{t('earn.share', { v: percent(s.shareBps) })}</span>}
        figures={[
          { label: t('earn.pending'), cents: s.pendingCents, testid: 'creator-pending' },
          { label: t('earn.settled'), cents: s.settledCents, testid: 'creator-settled' },
        ]}
        foot={
          <>
            <Link to="/mine/creatorearnings" data-testid="creator-earnings">
              {t('earn.salesLink', { n: s.items })}
            </Link>
            <Link to="/mine/usershouyimx">{t('route.usershouyimx.title')}</Link>
          </>
        }
      />
    </div>
  )
}
