// commissions (/mine/commissions, not a spec screen; reached from the
// promotion data, the promoter application and the income details): my
// commission, one line per order and level, newest first. Chips filter by
// state (?state=pending|settled|reversed, kept in the URL). A line says
// whose order it was (masked), the order (number masked), its amount and
// the rate, the commission, and when a pending one settles.
import { Link, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import '@/i18n/earn'
import { EARNING_STATES, earningState, isEarningState, maskName, maskOrderNo, percent, type EarningState } from '@/lib/earn'
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
import { inviteKeys } from '@/features/invite/keys'
import { useCommissions, usePromoter, type Commission } from '@/features/invite/promoter'
import { levelName } from '@/features/invite/words'
import styles from '@/features/invite/earn.module.css'

const FILTER = { pending: 'earn.state.pending', settled: 'earn.state.settled', reversed: 'earn.state.reversed' } as const

function Line({ c }: { c: Commission }) {
  const state = earningState(c.state)
  return (
    <li className={styles.row} data-testid="commission" data-state={state} data-level={c.level} data-cents={c.amountCents}>
      <div className={styles.rowMain}>
        <p className={styles.rowTitle}>
          {t('earn.fromLine', { level: levelName(c.level), who: maskName(c.invitee) || t('earn.someone') })}
        </p>
        <p className={styles.rowSub} data-testid="commission-order">
          {t('earn.orderLine', { no: maskOrderNo(c.orderNo), v: yuan(c.orderCents), rate: percent(c.rateBps) })}
        </p>
        <p className={styles.rowSub}>
          {shortTime(c.createdAt)}
          {state === 'pending' && c.settleAt && ` · ${t('earn.settlesOn', { t: shortTime(c.settleAt) })}`}
        </p>
      </div>
      <div className={styles.rowSide}>
        <p className={`${styles.amount} ${state === 'settled' ? styles.plus : ''} ${state === 'reversed' ? styles.struck : ''}`} data-testid="commission-amount">
          +¥{yuan(c.amountCents)}
        </p>
        <EarningChip state={state} />
      </div>
    </li>
  )
}

function List({ token, state }: { token: string; state: EarningState | '' }) {
  const q = useCommissions(state, token)
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data)
    return needsAccount(false, q.error) ? <RegisterGate hint={t('earn.guestPromoter')} /> : <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0)
    return (
      <>
        <StateView kind="empty" title={state ? t('earn.emptyState', { s: t(FILTER[state]) }) : t('earn.emptyCommission')} message={state ? undefined : t('earn.emptyCommissionHint')} />
        {!state && (
          <div className={styles.center}>
            <Link to="/mine/shareyaoqing" className={`${styles.primary} ${styles.primaryLink}`} data-testid="commissions-share">
              {t('inv.goShare')}
            </Link>
          </div>
        )}
      </>
    )
  return (
    <>
      <ul className={styles.list} data-testid="commissions">
        {items.map((c) => (
          <Line key={c.id} c={c} />
        ))}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}

export default function CommissionsPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const [params, setParams] = useSearchParams()
  const raw = params.get('state')
  const state: EarningState | '' = isEarningState(raw) ? raw : ''
  const promoter = usePromoter(isGuest ? null : token)
  const qc = useQueryClient()
  const pick = (s: EarningState | '') => {
    const p = new URLSearchParams(params)
    if (s) p.set('state', s)
    else p.delete('state')
    setParams(p, { replace: true })
  }
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (needsAccount(isGuest, promoter.error)) body = <RegisterGate hint={t('earn.guestPromoter')} />
  else
    body = (
      <>
        {promoter.data && (
          <MoneyCard
            title={t('earn.myCommission')}
            figures={[
              { label: t('earn.pending'), cents: promoter.data.pendingCents, testid: 'commissions-pending' },
              { label: t('earn.settled'), cents: promoter.data.settledCents, testid: 'commissions-settled' },
              { label: t('earn.reversed'), cents: promoter.data.reversedCents, testid: 'commissions-reversed' },
            ]}
          />
        )}
        <div className={`${styles.chips} ${styles.chipsBare}`} role="group" aria-label={t('earn.filter')} data-testid="commission-states" style={{ margin: '8px -12px 4px', padding: '6px 12px' }}>
          {(['', ...EARNING_STATES] as const).map((s) => (
            <button key={s || 'all'} type="button" className={`${styles.chip} ${state === s ? styles.chipOn : ''}`} aria-pressed={state === s} onClick={() => pick(s)} data-testid={`commission-state-${s || 'all'}`}>
              {s ? t(FILTER[s]) : t('rec.all')}
            </button>
          ))}
        </div>
        <List token={token} state={state} />
      </>
    )
  return (
    <div className={styles.page} data-testid="commissions-page">
      <NavBar title={t('route.commissions.title')} back="/mine/pushdata" />
      <main className={styles.body}>
        <PullRefresh onRefresh={() => qc.invalidateQueries({ queryKey: inviteKeys.earnAll() })}>
          <div className={styles.fill}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
