// 数据 → 概览: the range's figures as cards, and the days as line charts
// (people, revenue, plays and searches).
import { useMemo } from 'react'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { exportDaily } from './api'
import { lineOption } from './options'
import { cents2, totals } from './figures'
import { Kpis, type Kpi } from './Kpis'
import { ChartCard, CsvButton, RangeBar, useDaily, useRange } from './shared'

const KPIS: Kpi[] = [
  { key: 'activeAvg', label: 'stats.activeAvg' },
  { key: 'newGuests', label: 'stats.newGuests' },
  { key: 'registrations', label: 'stats.registrations' },
  { key: 'payers', label: 'stats.payers', hint: 'stats.payersHint' },
  { key: 'revenue', label: 'stats.revenue', money: true },
  { key: 'withdrawCents', label: 'stats.withdrawCents', money: true },
  { key: 'plays', label: 'stats.plays' },
  { key: 'searches', label: 'stats.searches' },
]

export function OverviewPage() {
  const t = useT()
  const [range, setRange] = useRange()
  const q = useDaily(range)
  const days = useMemo(() => q.data?.days ?? [], [q.data])
  const sum = useMemo(() => totals(days), [days])
  const users = useMemo(
    () =>
      lineOption(days.map((d) => d.day), [
        { name: t('stats.activeUsers'), data: days.map((d) => d.activeUsers), area: true },
        { name: t('stats.newGuests'), data: days.map((d) => d.newGuests) },
        { name: t('stats.registrations'), data: days.map((d) => d.registrations) },
      ]),
    [days, t],
  )
  const money = useMemo(
    () =>
      lineOption(
        days.map((d) => d.day),
        [
          { name: t('stats.revenue'), data: days.map((d) => d.revenue.total), area: true },
          { name: t('stats.withdrawals'), data: days.map((d) => d.withdrawals.cents) },
        ],
        true,
      ),
    [days, t],
  )
  const activity = useMemo(
    () =>
      lineOption(days.map((d) => d.day), [
        { name: t('stats.plays'), data: days.map((d) => d.plays), area: true },
        { name: t('stats.searches'), data: days.map((d) => d.searches) },
      ]),
    [days, t],
  )
  return (
    <Page title={t('stats.title.overview')} extra={<CsvButton run={() => exportDaily(range)} name={`stats-${range.from}-${range.to}`} testId="stats-csv-daily" />}>
      <RangeBar range={range} onChange={setRange} report={q.data} />
      {q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="stack">
          <Kpis totals={sum} items={KPIS} loading={q.isPending} />
          <div className="stats-grid">
            <ChartCard title={t('stats.chart.users')} name="users" range={range} option={users} testId="stats-chart-users"
              head={[t('stats.day'), t('stats.activeUsers'), t('stats.newGuests'), t('stats.registrations')]}
              rows={days.map((d) => [d.day, d.activeUsers, d.newGuests, d.registrations])}
            />
            <ChartCard title={t('stats.chart.revenue')} name="revenue" range={range} option={money} testId="stats-chart-revenue"
              head={[t('stats.day'), t('stats.revenue'), t('stats.withdrawals')]}
              rows={days.map((d) => [d.day, cents2(d.revenue.total), cents2(d.withdrawals.cents)])}
            />
            <ChartCard title={t('stats.chart.activity')} name="activity" range={range} option={activity} testId="stats-chart-activity"
              head={[t('stats.day'), t('stats.plays'), t('stats.searches')]}
              rows={days.map((d) => [d.day, d.plays, d.searches])}
            />
          </div>
        </div>
      )}
    </Page>
  )
}
