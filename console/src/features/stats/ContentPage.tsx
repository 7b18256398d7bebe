// 数据 → 播放与搜索: plays and searches by day, the most played videos and
// the most searched words of the range (each a sum of the days' top 200),
// each list exportable as CSV.
import { useMemo } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Card } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { QueryTable } from '@/components/QueryTable'
import { exportDaily, exportTop, getTop, statsKeys, type Range, type TopItem, type TopKind } from './api'
import { LazyChart as Chart } from './LazyChart'
import { barOption, lineOption } from './options'
import { totals } from './figures'
import { Kpis, type Kpi } from './Kpis'
import { ChartCard, CsvButton, RangeBar, useDaily, useRange } from './shared'

const KPIS: Kpi[] = [
  { key: 'plays', label: 'stats.plays' },
  { key: 'searches', label: 'stats.searches' },
]
const TOP = 20

const topLabel = (kind: TopKind, i: TopItem) => (kind === 'video' ? i.title || `#${i.key}` : i.key)

function Top({ kind, range }: { kind: TopKind; range: Range }) {
  const t = useT()
  const q = useQuery({ queryKey: statsKeys.top(kind, range, TOP), queryFn: () => getTop(kind, range, TOP) })
  const list = useMemo(() => q.data ?? [], [q.data])
  const label = (i: TopItem) => topLabel(kind, i)
  const chart = useMemo(() => {
    const ten = list.slice(0, 10)
    return barOption(
      ten.map((i) => topLabel(kind, i)),
      ten.map((i) => i.count),
      true,
    )
  }, [list, kind])
  const columns: ColumnsType<TopItem> = [
    { title: t('stats.rank'), key: 'rank', render: (_, __, i) => i + 1, width: 64 },
    { title: kind === 'video' ? t('stats.video') : t('stats.word'), key: 'key', render: (_, i) => (kind === 'video' ? `${label(i)} (#${i.key})` : i.key) },
    { title: t('stats.times'), dataIndex: 'count', align: 'right' },
  ]
  return (
    <Card
      title={kind === 'video' ? t('stats.topVideos') : t('stats.topWords')}
      size="small"
      extra={<CsvButton run={() => exportTop(kind, range)} name={`stats-top-${kind}-${range.from}-${range.to}`} testId={`stats-csv-top-${kind}`} />}
      data-testid={`stats-top-${kind}`}
    >
      {list.length > 0 && <Chart option={chart} height={280} testId={`stats-chart-top-${kind}`} />}
      <QueryTable<TopItem> query={q} empty={t('stats.emptyTop')} rowKey="key" columns={columns} dataSource={list} size="small" />
    </Card>
  )
}

export function ContentPage() {
  const t = useT()
  const [range, setRange] = useRange()
  const q = useDaily(range)
  const days = useMemo(() => q.data?.days ?? [], [q.data])
  const sum = useMemo(() => totals(days), [days])
  const activity = useMemo(
    () =>
      lineOption(
        days.map((d) => d.day),
        [
          { name: t('stats.plays'), data: days.map((d) => d.plays), area: true },
          { name: t('stats.searches'), data: days.map((d) => d.searches) },
        ],
      ),
    [days, t],
  )
  return (
    <Page title={t('stats.title.content')} extra={<CsvButton run={() => exportDaily(range)} name={`stats-${range.from}-${range.to}`} testId="stats-csv-content" />}>
      <RangeBar range={range} onChange={setRange} report={q.data} />
      {q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="stack">
          <Kpis totals={sum} items={KPIS} loading={q.isPending} />
          <ChartCard title={t('stats.chart.activity')} name="activity" range={range} option={activity} testId="stats-chart-activity"
            head={[t('stats.day'), t('stats.plays'), t('stats.searches')]}
            rows={days.map((d) => [d.day, d.plays, d.searches])}
          />
          <div className="stats-grid">
            <Top kind="video" range={range} />
            <Top kind="search" range={range} />
          </div>
        </div>
      )}
    </Page>
  )
}
