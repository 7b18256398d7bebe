// 数据 → 用户与漏斗: active users, new guests and registrations by day, and
// the range's funnel visit -> registration -> first payment.
import { useMemo } from 'react'
import { Card, Table, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { QueryTable } from '@/components/QueryTable'
import { exportDaily, type StatsDay } from './api'
import { LazyChart as Chart } from './LazyChart'
import { barOption, lineOption } from './options'
import { rate, totals } from './figures'
import { Kpis, type Kpi } from './Kpis'
import { ChartCard, ChartCsv, CsvButton, RangeBar, useDaily, useRange } from './shared'

const KPIS: Kpi[] = [
  { key: 'activeAvg', label: 'stats.activeAvg' },
  { key: 'activePeak', label: 'stats.activePeak' },
  { key: 'newGuests', label: 'stats.newGuests' },
  { key: 'registrations', label: 'stats.registrations' },
  { key: 'firstPayments', label: 'stats.firstPayments' },
]

interface Step {
  step: string
  count: number
  rate: string
}

export function UsersPage() {
  const t = useT()
  const [range, setRange] = useRange()
  const q = useDaily(range)
  const days = useMemo(() => q.data?.days ?? [], [q.data])
  const sum = useMemo(() => totals(days), [days])
  const users = useMemo(
    () =>
      lineOption(
        days.map((d) => d.day),
        [
          { name: t('stats.activeUsers'), data: days.map((d) => d.activeUsers), area: true },
          { name: t('stats.newGuests'), data: days.map((d) => d.newGuests) },
          { name: t('stats.registrations'), data: days.map((d) => d.registrations) },
        ],
      ),
    [days, t],
  )
  const steps: Step[] = useMemo(
    () => [
      { step: t('stats.visits'), count: sum.visits, rate: '100%' },
      { step: t('stats.registrations'), count: sum.registrations, rate: rate(sum.registrations, sum.visits) },
      { step: t('stats.firstPayments'), count: sum.firstPayments, rate: rate(sum.firstPayments, sum.registrations) },
    ],
    [sum, t],
  )
  const funnel = useMemo(() => barOption(steps.map((s) => s.step), steps.map((s) => s.count)), [steps])
  const stepCols: ColumnsType<Step> = [
    { title: t('stats.step'), dataIndex: 'step' },
    { title: t('stats.count'), dataIndex: 'count', align: 'right' },
    { title: t('stats.conversion'), dataIndex: 'rate', align: 'right' },
  ]
  const columns: ColumnsType<StatsDay> = [
    { title: t('stats.day'), dataIndex: 'day', fixed: 'left' },
    { title: t('stats.activeUsers'), dataIndex: 'activeUsers', align: 'right' },
    { title: t('stats.newGuests'), dataIndex: 'newGuests', align: 'right' },
    { title: t('stats.registrations'), dataIndex: 'registrations', align: 'right' },
    { title: t('stats.firstPayments'), render: (_, d) => d.funnel.firstPayments, align: 'right' },
    { title: t('stats.conversion'), render: (_, d) => rate(d.registrations, d.funnel.visits), align: 'right' },
  ]
  const csv = <CsvButton run={() => exportDaily(range)} name={`stats-${range.from}-${range.to}`} testId="stats-csv-users" />
  return (
    <Page title={t('stats.title.users')} extra={csv}>
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
            <Card
              title={t('stats.chart.funnel')}
              size="small"
              data-testid="stats-funnel"
              extra={<ChartCsv name="funnel" range={range} head={[t('stats.step'), t('stats.count'), t('stats.conversion')]} rows={steps.map((s) => [s.step, s.count, s.rate])} />}
            >
              <Chart option={funnel} height={220} testId="stats-chart-funnel" />
              <Table<Step> size="small" rowKey="step" columns={stepCols} dataSource={steps} pagination={false} loading={q.isPending} />
              <Typography.Paragraph type="secondary" className="stats-note">
                {t('stats.funnelHint')}
              </Typography.Paragraph>
            </Card>
          </div>
          <Card title={t('stats.daily')} size="small" extra={csv}>
            <QueryTable<StatsDay> query={q} empty={t('stats.emptyDays')} rowKey="day" columns={columns} dataSource={[...days].reverse()} size="small" />
          </Card>
        </div>
      )}
    </Page>
  )
}
