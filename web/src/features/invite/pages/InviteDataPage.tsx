// agentdata (/mine/pushdata?type=data|list): the promotion data. The data
// tab has my commission (pending and settled, with my tier), the invite
// counts of all time, and the figures of today, this week or this month
// (?period=day|week|month, Asia/Shanghai): visits of my link, registrations,
// payers, what they paid and the commission it made, with a bar per day
// and the days listed. The list tab has my invitees (names masked), each
// with what they paid and what they earned me, more as the user scrolls.
// Both tab and period live in the query string, so back and reload keep
// them. No chart library: the bars are CSS (this is a lazy route, and the
// app's first JavaScript has a budget).
import { useState } from 'react'
import { Link, useSearchParams } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import '@/i18n/earn'
import { maskName } from '@/lib/earn'
import { relativeTime } from '@/lib/time'
import { yuan } from '@/lib/wallet'
import { LoadMore } from '@/components/LoadMore'
import { MoneyCard } from '@/components/MoneyCard'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { needsAccount, RegisterGate } from '@/components/RegisterGate'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useInviteInfo, useInvitees, type Invitee, type InviteInfo } from '@/features/invite/api'
import { inviteKeys, type Period } from '@/features/invite/keys'
import { usePromoter, usePromoterStats, type DayStats, type Promoter, type PromoterStats } from '@/features/invite/promoter'
import { barHeights, monthDay, PERIODS, readDataTab, readPeriod, weekday, windowDays, withPeriod, withTab, type DataTab } from '@/features/invite/rules'
import { PERIOD_LABEL, tierLabel, weekdayName } from '@/features/invite/words'
import styles from '@/features/invite/earn.module.css'

function Counts({ info }: { info: InviteInfo }) {
  const coins = info.rewardCoins > 0 || info.rewardedCoins > 0
  return (
    <section className={`${styles.group} ${styles.counts}`} data-testid="invite-counts" style={{ gridTemplateColumns: `repeat(${coins ? 3 : 2}, 1fr)` }}>
      <div>
        <p className={styles.countValue} data-testid="invite-total">
          {info.inviteCount}
        </p>
        <p className={styles.countLabel}>{t('earn.invitedAll')}</p>
      </div>
      <div>
        <p className={styles.countValue} data-testid="invite-registered">
          {info.registeredCount}
        </p>
        <p className={styles.countLabel}>{t('inv.registered')}</p>
      </div>
      {coins && (
        <div>
          <p className={styles.countValue} data-testid="invite-coins">
            {info.rewardedCoins}
          </p>
          <p className={styles.countLabel}>{t('inv.coins')}</p>
        </div>
      )}
    </section>
  )
}

function CommissionCard({ p }: { p: Promoter }) {
  return (
    <MoneyCard
      testid="promoter-card"
      title={t('earn.myCommission')}
      badge={
        <span className={styles.tierBadge} data-testid="promoter-tier" data-tier={p.tier}>
          {tierLabel(p.tier)}
        </span>
      }
      figures={[
        { label: t('earn.pending'), cents: p.pendingCents, testid: 'data-pending' },
        { label: t('earn.settled'), cents: p.settledCents, testid: 'data-settled' },
      ]}
      foot={
        <>
          <Link to="/mine/commissions" data-testid="data-commissions">
            {t('earn.commissionList')}
          </Link>
          <Link to="/mine/usershareshenqing" data-testid="data-apply">
            {p.tier === 'promoter' ? t('earn.promoterRates') : p.state === 'pending' ? t('earn.st.pending') : t('earn.becomePromoter')}
          </Link>
        </>
      }
    />
  )
}

type Metric = 'visits' | 'registrations' | 'payers' | 'paidCents' | 'commissionCents'
const METRICS: { key: Metric; label: 'earn.m.visits' | 'earn.m.registrations' | 'earn.m.payers' | 'earn.m.paid' | 'earn.m.commission'; money?: boolean }[] = [
  { key: 'visits', label: 'earn.m.visits' },
  { key: 'registrations', label: 'earn.m.registrations' },
  { key: 'payers', label: 'earn.m.payers' },
  { key: 'paidCents', label: 'earn.m.paid', money: true },
  { key: 'commissionCents', label: 'earn.m.commission', money: true },
]

const show = (m: (typeof METRICS)[number], v: number) => (m.money ? `¥${yuan(v)}` : String(v))

function dayLabel(date: string): string {
  const w = weekdayName(weekday(date))
  return w ? `${monthDay(date)} ${w}` : monthDay(date)
}

function Chart({ series }: { series: DayStats[] }) {
  const [metric, setMetric] = useState<Metric>('visits')
  const m = METRICS.find((x) => x.key === metric)!
  const values = series.map((d) => d[metric])
  const heights = barHeights(values)
  const max = Math.max(0, ...values)
  const total = values.reduce((a, b) => a + b, 0)
  return (
    <section className={styles.section} aria-labelledby="data-chart-title">
      <div className={styles.sectionHead}>
        <h2 id="data-chart-title" className={styles.sectionTitle}>
          {t('earn.perDay')}
        </h2>
      </div>
      <div className={styles.group}>
        <div className={styles.chips} role="group" aria-label={t('earn.metric')}>
          {METRICS.map((x) => (
            <button key={x.key} type="button" className={`${styles.chip} ${metric === x.key ? styles.chipOn : ''}`} aria-pressed={metric === x.key} onClick={() => setMetric(x.key)} data-testid={`metric-${x.key}`}>
              {t(x.label)}
            </button>
          ))}
        </div>
        <div className={styles.chart} role="img" aria-label={t('earn.chartLabel', { metric: t(m.label), total: show(m, total), max: show(m, max) })} data-testid="data-chart" data-metric={metric}>
          <span className={styles.chartMax} aria-hidden="true">
            {show(m, max)}
          </span>
          <div className={styles.bars} aria-hidden="true">
            {series.map((d, i) => (
              <span key={d.date} className={styles.barSlot} title={`${monthDay(d.date)} ${show(m, values[i])}`}>
                <span className={`${styles.bar} ${values[i] > 0 ? styles.barOn : ''}`} style={{ height: `${heights[i]}%` }} data-testid="data-bar" data-date={d.date} data-value={values[i]} />
              </span>
            ))}
          </div>
          <div className={styles.axis} aria-hidden="true">
            <span>{monthDay(series[0].date)}</span>
            <span>{monthDay(series[series.length - 1].date)}</span>
          </div>
        </div>
      </div>
    </section>
  )
}

function Days({ series }: { series: DayStats[] }) {
  return (
    <section className={styles.section} aria-labelledby="data-days-title">
      <h2 id="data-days-title" className={styles.sectionTitle}>
        {t('earn.days')}
      </h2>
      <ul className={styles.list} data-testid="data-days">
        {[...series].reverse().map((d) => (
          <li key={d.date} className={styles.row} data-testid="data-day" data-date={d.date}>
            <div className={styles.rowMain}>
              <p className={styles.rowTitle}>{dayLabel(d.date)}</p>
              <p className={styles.rowSub}>{t('earn.dayLine', { v: d.visits, r: d.registrations, p: d.payers })}</p>
            </div>
            <div className={styles.rowSide}>
              <p className={`${styles.amount} ${d.commissionCents > 0 ? styles.plus : ''}`}>¥{yuan(d.commissionCents)}</p>
              <p className={styles.rowSub}>{t('earn.paidOf', { v: yuan(d.paidCents) })}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  )
}

const DATE = /^\d{4}-\d{2}-\d{2}$/

function Figures({ s }: { s: PromoterStats }) {
  // from and to are the window's first and last day (to is today).
  const days: [string, string] | null = DATE.test(s.from) && DATE.test(s.to) ? [s.from, s.to] : windowDays(s.series)
  return (
    <>
      <p className={styles.window} data-testid="data-window">
        {days == null ? '' : days[0] === days[1] ? dayLabel(days[0]) : `${monthDay(days[0])} – ${monthDay(days[1])}`}
      </p>
      <dl className={styles.tiles} data-testid="data-figures" data-period={s.period}>
        {METRICS.map((m) => (
          <div key={m.key} className={`${styles.tile} ${m.money ? styles.tileWide : ''}`}>
            <dt>{t(m.label)}</dt>
            <dd data-testid={`data-${m.key}`} data-value={s[m.key]}>
              {show(m, s[m.key])}
            </dd>
          </div>
        ))}
      </dl>
      {s.series.length > 1 && (
        <>
          <Chart series={s.series} />
          <Days series={s.series} />
        </>
      )}
    </>
  )
}

function Data({ token, info, period, onPeriod }: { token: string; info: ReturnType<typeof useInviteInfo>; period: Period; onPeriod: (p: Period) => void }) {
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const promoter = usePromoter(isGuest ? null : token)
  const stats = usePromoterStats(period, isGuest ? null : token)
  const guest = needsAccount(isGuest, promoter.error, stats.error)
  return (
    <>
      {guest ? null : promoter.isPending ? (
        <div className={`${styles.cardSkeleton} prima-skeleton`} />
      ) : promoter.isError ? (
        <StateView kind="error" compact error={promoter.error} onRetry={() => void promoter.refetch()} />
      ) : (
        <CommissionCard p={promoter.data} />
      )}
      {info.isPending ? (
        <StateView kind="loading" compact />
      ) : info.isError ? (
        <StateView kind="error" compact error={info.error} onRetry={() => void info.refetch()} />
      ) : (
        <Counts info={info.data} />
      )}
      {guest ? (
        <RegisterGate hint={t('earn.guestData')} />
      ) : (
        <>
          <div className={styles.segment} role="group" aria-label={t('earn.period')} data-testid="data-periods">
            {PERIODS.map((p) => (
              <button key={p} type="button" className={period === p ? styles.segOn : ''} aria-pressed={period === p} onClick={() => onPeriod(p)} data-testid={`period-${p}`}>
                {t(PERIOD_LABEL[p])}
              </button>
            ))}
          </div>
          {stats.isPending ? (
            <StateView kind="loading" />
          ) : stats.isError ? (
            <StateView kind="error" error={stats.error} onRetry={() => void stats.refetch()} />
          ) : (
            <Figures s={stats.data} />
          )}
        </>
      )}
    </>
  )
}

function Row({ v }: { v: Invitee }) {
  return (
    <li className={styles.row} data-testid="invitee" data-uid={v.uid} data-state={v.rewardState}>
      {v.portrait ? <img className={styles.avatar} src={v.portrait} alt="" /> : <span className={styles.avatar} />}
      <div className={styles.rowMain}>
        <p className={styles.rowTitle} data-testid="invitee-name">
          {maskName(v.name) || t('earn.someone')}
        </p>
        <p className={styles.rowSub}>
          {v.registered ? t('inv.registered') : t('earn.unregistered')} · {t('inv.boundAt', { time: relativeTime(v.boundAt) })}
          {v.rewardState === 'rewarded' && ` · ${t('inv.state.rewarded', { coins: v.rewardCoins })}`}
        </p>
      </div>
      <div className={styles.rowSide}>
        <p className={`${styles.amount} ${v.commissionCents > 0 ? styles.plus : ''}`} data-testid="invitee-commission" data-cents={v.commissionCents}>
          ¥{yuan(v.commissionCents)}
        </p>
        <p className={styles.rowSub} data-testid="invitee-paid" data-cents={v.paidCents}>
          {t('earn.paidOf', { v: yuan(v.paidCents) })}
        </p>
      </div>
    </li>
  )
}

function Invitees({ token }: { token: string }) {
  const q = useInvitees(token)
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0)
    return (
      <>
        <StateView kind="empty" title={t('inv.empty')} />
        <div className={styles.center}>
          <Link to="/mine/shareyaoqing" className={`${styles.primary} ${styles.primaryLink}`} data-testid="invite-go-share">
            {t('inv.goShare')}
          </Link>
        </div>
      </>
    )
  return (
    <>
      <p className={styles.note}>{t('earn.listNote')}</p>
      <ul className={styles.list} data-testid="invitees">
        {items.map((v) => (
          <Row key={v.uid} v={v} />
        ))}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}

export default function InviteDataPage() {
  const token = useUserStore((s) => s.token)
  const [params, setParams] = useSearchParams()
  const tab: DataTab = readDataTab(params)
  const period = readPeriod(params)
  const info = useInviteInfo(token)
  const queryClient = useQueryClient()
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (tab === 'list') body = <Invitees token={token} />
  else body = <Data token={token} info={info} period={period} onPeriod={(p) => setParams(withPeriod(params, p), { replace: true })} />
  return (
    <div className={styles.page} data-testid="agentdata">
      <NavBar title={t('route.agentdata.title')} back="/mine" />
      <div className={styles.tabs} role="tablist">
        {(['data', 'list'] as const).map((k) => (
          <button
            key={k}
            type="button"
            role="tab"
            aria-selected={tab === k}
            className={`${styles.tab} ${tab === k ? styles.tabOn : ''}`}
            onClick={() => setParams(withTab(params, k), { replace: true })}
            data-testid={`invite-tab-${k}`}
          >
            {t(k === 'data' ? 'inv.tabData' : 'inv.tabList')}
          </button>
        ))}
      </div>
      <main className={styles.body} style={{ paddingTop: 0 }}>
        <PullRefresh onRefresh={() => queryClient.invalidateQueries({ queryKey: inviteKeys.all })}>
          <div className={styles.fill}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
