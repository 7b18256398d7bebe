// The chart as a lazily loaded component: ECharts (Chart.tsx) is fetched
// the first time a statistics page draws one, while a skeleton of the
// chart's height holds its place.
import { lazy, Suspense } from 'react'
import { Skeleton } from 'antd'
import type { ChartOption } from './options'

const Chart = lazy(() => import('./Chart'))

export function LazyChart(props: { option: ChartOption; height?: 220 | 280 | 360; testId?: string }) {
  return (
    <Suspense fallback={<Skeleton active paragraph={{ rows: props.height === 220 ? 4 : 6 }} title={false} className={`stats-chart stats-chart-${props.height ?? 280}`} />}>
      <Chart {...props} />
    </Suspense>
  )
}
