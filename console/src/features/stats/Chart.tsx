// One ECharts chart (echarts/core with the line, bar and pie charts and the
// canvas renderer only). Pages load it through LazyChart (React.lazy), so
// ECharts is a chunk of its own that only the statistics pages fetch, and
// their cards show before it arrives. The canvas renderer draws
// without style elements, which the console's CSP (style-src 'self') would
// refuse.
import { useEffect, useRef } from 'react'
import * as echarts from 'echarts/core'
import { BarChart, LineChart, PieChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'
import type { ChartOption } from './options'

echarts.use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer])

export default function Chart({ option, height = 280, testId }: { option: ChartOption; height?: 220 | 280 | 360; testId?: string }) {
  const el = useRef<HTMLDivElement>(null)
  const chart = useRef<echarts.ECharts | null>(null)
  useEffect(() => {
    if (!el.current) return
    const c = echarts.init(el.current, undefined, { renderer: 'canvas' })
    chart.current = c
    const ro = new ResizeObserver(() => c.resize())
    ro.observe(el.current)
    return () => {
      ro.disconnect()
      c.dispose()
      chart.current = null
    }
  }, [])
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true })
  }, [option])
  return <div ref={el} className={`stats-chart stats-chart-${height}`} data-testid={testId} role="img" />
}
