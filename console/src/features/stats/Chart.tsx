// One ECharts chart (echarts/core with the line, bar and pie charts and the
// canvas renderer only). Only the statistics pages import this file, so
// only their lazily loaded chunks carry ECharts. The canvas renderer draws
// without style elements, which the console's CSP (style-src 'self') would
// refuse.
import { useEffect, useRef } from 'react'
import * as echarts from 'echarts/core'
import { BarChart, LineChart, PieChart } from 'echarts/charts'
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components'
import { CanvasRenderer } from 'echarts/renderers'
import type { ComposeOption } from 'echarts/core'
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts'
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components'

echarts.use([LineChart, BarChart, PieChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer])

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>

export function Chart({ option, height = 280, testId }: { option: ChartOption; height?: number; testId?: string }) {
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

// lineOption is a line chart of series over days (one value per day).
export function lineOption(days: string[], series: { name: string; data: number[]; area?: boolean }[], money = false): ChartOption {
  const fmt = (v: number) => (money ? (v / 100).toFixed(2) : String(v))
  return {
    tooltip: { trigger: 'axis', valueFormatter: (v) => fmt(Number(v)) },
    legend: { top: 0, type: 'scroll' },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    xAxis: { type: 'category', data: days.map((d) => d.slice(5)), boundaryGap: false },
    yAxis: { type: 'value', minInterval: money ? 100 : 1, axisLabel: { formatter: (v: number) => (money ? String(v / 100) : String(v)) } },
    series: series.map((s) => ({ type: 'line', name: s.name, data: s.data, smooth: true, showSymbol: days.length <= 31, areaStyle: s.area ? { opacity: 0.15 } : undefined })),
  }
}

// barOption is a (horizontal when many labels) bar chart of named values.
export function barOption(labels: string[], values: number[], horizontal = false): ChartOption {
  const cat = { type: 'category' as const, data: labels, axisLabel: { width: 120, overflow: 'truncate' as const } }
  const val = { type: 'value' as const, minInterval: 1 }
  return {
    tooltip: { trigger: 'axis' },
    grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
    xAxis: horizontal ? val : cat,
    yAxis: horizontal ? { ...cat, inverse: true } : val,
    series: [{ type: 'bar', data: values, barMaxWidth: 28 }],
  }
}

// pieOption is a ring of named values; money values are cents.
export function pieOption(items: { name: string; value: number }[], money = false): ChartOption {
  return {
    tooltip: { trigger: 'item', valueFormatter: (v) => (money ? (Number(v) / 100).toFixed(2) : String(v)) },
    legend: { bottom: 0, type: 'scroll' },
    series: [{ type: 'pie', radius: ['40%', '68%'], center: ['50%', '45%'], data: items, label: { formatter: '{b}: {d}%' } }],
  }
}
