// creatorearnings (/mine/creatorearnings, not a spec screen; reached from
// the creator's card on /myhome and from the income details): what my paid
// works earned, one line per sale, newest first: the work (tap to open
// it), what the buyer paid in coins, my share, the income it made and its
// state (pending until it settles, then withdrawable; reversed when the
// sale was refunded first). Totals on top. Someone who is not an approved
// creator and has sold nothing is pointed to the creator application.
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import '@/i18n/earn'
import { earningState, percent } from '@/lib/earn'
import { shortTime } from '@/lib/time'
import { yuan } from '@/lib/wallet'
import { EarningChip } from '@/components/EarningChip'
import { LoadMore } from '@/components/LoadMore'
import { MoneyCard } from '@/components/MoneyCard'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { needsAccount, RegisterGate } from '@/components/RegisterGate'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { itemPath, useCreatorEarnings, type CreatorEarning, type CreatorSummary } from '@/features/profile/api/earnings'
import { profileKeys } from '@/features/profile/keys'
import styles from '@/features/profile/components/earnings.module.css'

const KIND = { video: 'earn.kind.video', post: 'earn.kind.post', gallery: 'earn.kind.gallery' } as const

function Line({ e }: { e: CreatorEarning }) {
  const state = earningState(e.state)
  const kind = KIND[e.kind] ?? KIND.post
  return (
    <li className={styles.row} data-testid="earning" data-state={state} data-kind={e.kind} data-cents={e.amountCents}>
      <Link to={itemPath(e.kind, e.itemID)} className={styles.rowLink}>
        <div className={styles.rowMain}>
          <p className={styles.rowTitle} data-testid="earning-title">
            <span className={styles.kind}>{t(kind)}</span>
            {e.title || t('earn.untitled')}
          </p>
          <p className={styles.rowSub}>{t('earn.saleLine', { coins: e.coins, share: percent(e.shareBps) })}</p>
          <p className={styles.rowSub}>
            {shortTime(e.createdAt)}
            {state === 'pending' && e.settleAt && ` · ${t('earn.settlesOn', { t: shortTime(e.settleAt) })}`}
          </p>
        </div>
        <div className={styles.rowSide}>
          <p className={`${styles.amount} ${state === 'settled' ? styles.plus : ''} ${state === 'reversed' ? styles.struck : ''}`} data-testid="earning-amount">
            +¥{yuan(e.amountCents)}
          </p>
          <EarningChip state={state} />
        </div>
      </Link>
    </li>
  )
}

function Summary({ s }: { s: CreatorSummary }) {
  return (
    <MoneyCard
      testid="earnings-summary"
      title={t('earn.creator')}
      badge={<span className={styles.badge}>{t('earn.share', { v: percent(s.shareBps) })}</span>}
      figures={[
        { label: t('earn.pending'), cents: s.pendingCents, testid: 'earnings-pending' },
        { label: t('earn.settled'), cents: s.settledCents, testid: 'earnings-settled' },
      ]}
      foot={<Link to="/mine/usershouyimx">{t('earn.toIncome')}</Link>}
    />
  )
}

export default function CreatorEarningsPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const q = useCreatorEarnings(isGuest ? null : token)
  const qc = useQueryClient()
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (needsAccount(isGuest, q.error)) body = <RegisterGate hint={t('earn.guestCreator')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError && !q.data) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else {
    const summary = q.data.pages[0].summary
    const items = q.data.pages.flatMap((p) => p.list)
    body = (
      <>
        {(summary.approved || items.length > 0) && <Summary s={summary} />}
        {items.length === 0 ? (
          summary.approved ? (
            <StateView kind="empty" title={t('earn.noSales')} message={t('earn.noSalesHint')} />
          ) : (
            <>
              <StateView kind="empty" title={t('earn.notCreator')} message={t('earn.notCreatorHint')} />
              <div className={styles.center}>
                <Link to="/mine/settled" className={`${styles.primary} prima-hit`} data-testid="earnings-apply">
                  {t('route.settled.title')}
                </Link>
              </div>
            </>
          )
        ) : (
          <>
            <h2 className={styles.sectionTitle}>{t('earn.sales')}</h2>
            <ul className={styles.list} data-testid="earnings">
              {items.map((e) => (
                <Line key={e.id} e={e} />
              ))}
            </ul>
            <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
          </>
        )}
      </>
    )
  }
  return (
    <div className={styles.page} data-testid="creatorearnings">
      <NavBar title={t('route.creatorearnings.title')} back="/myhome" />
      <main className={styles.body}>
        <PullRefresh onRefresh={() => qc.invalidateQueries({ queryKey: profileKeys.earningsAll() })}>
          <div className={styles.fill}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
