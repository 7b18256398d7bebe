// The charts' options, built from the day rows (pure: no ECharts code, only
// its types, so the pages can build them before the chart chunk loads).
import type { ComposeOption } from 'echarts/core'
import type { BarSeriesOption, LineSeriesOption, PieSeriesOption } from 'echarts/charts'
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components'

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | PieSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>

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
