// 数据 → 收入: top-ups and VIP by day, by payment method, withdrawals paid
// out, and the days as a table; each exportable as CSV (the daily CSV
// carries every column, one per payment method too).
import { useMemo } from 'react'
import { Card, Empty } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { QueryTable } from '@/components/QueryTable'
import { exportDaily, type StatsDay } from './api'
import { LazyChart as Chart } from './LazyChart'
import { lineOption, pieOption } from './options'
import { cents2, totals, yuan } from './figures'
import { Kpis, type Kpi } from './Kpis'
import { ChartCard, ChartCsv, CsvButton, RangeBar, useDaily, useRange } from './shared'

const KPIS: Kpi[] = [
  { key: 'revenue', label: 'stats.revenue', money: true },
  { key: 'topup', label: 'stats.topup', money: true },
  { key: 'vip', label: 'stats.vip', money: true },
  { key: 'payers', label: 'stats.payers', hint: 'stats.payersHint' },
  { key: 'firstPayments', label: 'stats.firstPayments' },
  { key: 'withdrawCount', label: 'stats.withdrawCount' },
  { key: 'withdrawCents', label: 'stats.withdrawCents', money: true },
]

export function RevenuePage() {
  const t = useT()
  const [range, setRange] = useRange()
  const q = useDaily(range)
  const days = useMemo(() => q.data?.days ?? [], [q.data])
  const sum = useMemo(() => totals(days), [days])
  const byDay = useMemo(
    () =>
      lineOption(
        days.map((d) => d.day),
        [
          { name: t('stats.revenue'), data: days.map((d) => d.revenue.total), area: true },
          { name: t('stats.topup'), data: days.map((d) => d.revenue.topup) },
          { name: t('stats.vip'), data: days.map((d) => d.revenue.vip) },
        ],
        true,
      ),
    [days, t],
  )
  const providers = useMemo(
    () =>
      pieOption(
        Object.entries(sum.byProvider)
          .filter(([, v]) => v > 0)
          .map(([name, value]) => ({ name, value })),
        true,
      ),
    [sum],
  )
  const withdrawals = useMemo(
    () => lineOption(days.map((d) => d.day), [{ name: t('stats.withdrawCents'), data: days.map((d) => d.withdrawals.cents), area: true }], true),
    [days, t],
  )
  const columns: ColumnsType<StatsDay> = [
    { title: t('stats.day'), dataIndex: 'day', fixed: 'left' },
    { title: t('stats.revenue'), render: (_, d) => yuan(d.revenue.total), align: 'right' },
    { title: t('stats.topup'), render: (_, d) => yuan(d.revenue.topup), align: 'right' },
    { title: t('stats.vip'), render: (_, d) => yuan(d.revenue.vip), align: 'right' },
    { title: t('stats.payers'), dataIndex: 'payers', align: 'right' },
    { title: t('stats.firstPayments'), render: (_, d) => d.funnel.firstPayments, align: 'right' },
    { title: t('stats.withdrawCount'), render: (_, d) => d.withdrawals.count, align: 'right' },
    { title: t('stats.withdrawCents'), render: (_, d) => yuan(d.withdrawals.cents), align: 'right' },
  ]
  const csv = <CsvButton run={() => exportDaily(range)} name={`stats-${range.from}-${range.to}`} testId="stats-csv-revenue" />
  return (
    <Page title={t('stats.title.revenue')} extra={csv}>
      <RangeBar range={range} onChange={setRange} report={q.data} />
      {q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="stack">
          <Kpis totals={sum} items={KPIS} loading={q.isPending} />
          <div className="stats-grid">
            <ChartCard title={t('stats.chart.revenue')} name="revenue" range={range} option={byDay} testId="stats-chart-revenue"
              head={[t('stats.day'), t('stats.revenue'), t('stats.topup'), t('stats.vip')]}
              rows={days.map((d) => [d.day, cents2(d.revenue.total), cents2(d.revenue.topup), cents2(d.revenue.vip)])}
            />
            <Card
              title={t('stats.chart.providers')}
              size="small"
              extra={
                <ChartCsv
                  name="providers"
                  range={range}
                  head={[t('stats.provider'), t('stats.revenue')]}
                  rows={Object.entries(sum.byProvider).map(([p, c]) => [p, cents2(c)])}
                />
              }
            >
              {q.isPending || Object.values(sum.byProvider).some((v) => v > 0) ? (
                <Chart option={providers} testId="stats-chart-providers" />
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('stats.noRevenue')} data-testid="stats-chart-providers-empty" />
              )}
            </Card>
            <ChartCard title={t('stats.chart.withdrawals')} name="withdrawals" range={range} option={withdrawals} testId="stats-chart-withdrawals"
              head={[t('stats.day'), t('stats.withdrawCount'), t('stats.withdrawCents')]}
              rows={days.map((d) => [d.day, d.withdrawals.count, cents2(d.withdrawals.cents)])}
            />
          </div>
          <Card title={t('stats.daily')} size="small" extra={csv}>
            <QueryTable<StatsDay> query={q} empty={t('stats.emptyDays')} rowKey="day" columns={columns} dataSource={[...days].reverse()} size="small" />
          </Card>
        </div>
      )}
    </Page>
  )
}
