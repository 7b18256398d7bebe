// What the four statistics pages share: the range in the URL (?from&to,
// Asia/Shanghai days) with its picker and presets, the roll-up-now button,
// the daily query, a CSV button and the line under the bar saying how old
// the figures are.
import { useCallback, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Card, DatePicker, Typography } from 'antd'
import { DownloadOutlined, SyncOutlined } from '@ant-design/icons'
import dayjs, { type Dayjs } from 'dayjs'
import { useT } from '@/i18n'
import { save } from '@/lib/save'
import { formatTime } from '@/lib/time'
import { errorTip } from '@/components/ErrorState'
import { getDaily, rollup, statsKeys, type Range, type StatsReport } from './api'
import { LazyChart } from './LazyChart'
import type { ChartOption } from './options'
import { lastDays, MAX_DAYS, notRolled, PRESETS, rangeFrom, toCSV, todayInShanghai } from './figures'

export function useRange(): [Range, (r: Range) => void] {
  const [params, setParams] = useSearchParams()
  const range = useMemo(() => rangeFrom(params), [params])
  const set = useCallback((r: Range) => setParams(new URLSearchParams({ from: r.from, to: r.to }), { replace: true }), [setParams])
  return [range, set]
}

export function useDaily(range: Range) {
  return useQuery({ queryKey: statsKeys.daily(range), queryFn: () => getDaily(range) })
}

export function CsvButton({ run, name, testId }: { run: () => Promise<{ blob: Blob; filename: string }>; name: string; testId: string }) {
  const t = useT()
  const { message } = App.useApp()
  const [busy, setBusy] = useState(false)
  const go = async () => {
    setBusy(true)
    try {
      const f = await run()
      const file = f.filename === 'download' ? `${name}.csv` : f.filename
      save(f.blob, file)
      void message.success(t('stats.exported', { file }))
    } catch (e) {
      void message.error(errorTip(e, t))
    } finally {
      setBusy(false)
    }
  }
  return (
    <Button size="small" icon={<DownloadOutlined />} loading={busy} onClick={() => void go()} data-testid={testId}>
      {t('stats.csv')}
    </Button>
  )
}

// ChartCsv downloads what one chart shows (built in the browser from the
// rows already loaded): the day or item, then one column per series.
export function ChartCsv({ name, range, head, rows }: { name: string; range: Range; head: string[]; rows: (string | number)[][] }) {
  const t = useT()
  const { message } = App.useApp()
  const file = `stats-${name}-${range.from}-${range.to}.csv`
  return (
    <Button
      size="small"
      type="text"
      icon={<DownloadOutlined />}
      disabled={rows.length === 0}
      onClick={() => {
        save(new Blob([toCSV(head, rows)], { type: 'text/csv;charset=utf-8' }), file)
        void message.success(t('stats.exported', { file }))
      }}
      aria-label={t('stats.csv')}
      data-testid={`stats-chart-csv-${name}`}
    >
      CSV
    </Button>
  )
}

// ChartCard: a chart in a card whose corner downloads the chart's own
// figures as CSV (name the file's, head and rows its columns and lines).
export function ChartCard(props: { title: string; name: string; range: Range; head: string[]; rows: (string | number)[][]; option: ChartOption; testId: string }) {
  const { title, option, testId, ...csv } = props
  return (
    <Card title={title} size="small" extra={<ChartCsv {...csv} />}>
      <LazyChart option={option} testId={testId} />
    </Card>
  )
}

export function RangeBar({ range, onChange, report }: { range: Range; onChange: (r: Range) => void; report?: StatsReport }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const today = todayInShanghai()
  const roll = useMutation({
    mutationFn: () => rollup(today),
    onSuccess: () => {
      void message.success(t('stats.rolled', { day: today }))
      void qc.invalidateQueries({ queryKey: statsKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const presets = PRESETS.map((n) => {
    const r = lastDays(n)
    return { label: t('stats.last', { n }), value: [dayjs(r.from), dayjs(r.to)] as [Dayjs, Dayjs] }
  })
  const missing = report ? notRolled(report.days) : 0
  return (
    <>
      <div className="stats-bar">
        <DatePicker.RangePicker
          aria-label={t('stats.range')}
          value={[dayjs(range.from), dayjs(range.to)]}
          allowClear={false}
          presets={presets}
          disabledDate={(d, info) => {
            if (d.format('YYYY-MM-DD') > today) return true
            const from = info?.from
            return !!from && Math.abs(d.diff(from, 'day')) >= MAX_DAYS
          }}
          onChange={(v) => {
            if (v?.[0] && v[1]) onChange({ from: v[0].format('YYYY-MM-DD'), to: v[1].format('YYYY-MM-DD') })
          }}
          data-testid="stats-range"
        />
        <Button icon={<SyncOutlined />} loading={roll.isPending} onClick={() => roll.mutate()} data-testid="stats-rollup">
          {t('stats.rollup')}
        </Button>
      </div>
      {report && (
        <Typography.Paragraph type="secondary" data-testid="stats-updated">
          {report.updatedAt ? t('stats.updatedAt', { at: formatTime(report.updatedAt) }) : t('stats.neverRolled')}
        </Typography.Paragraph>
      )}
      {report?.updatedAt && missing > 0 ? <Alert type="info" showIcon className="stats-missing" title={t('stats.notRolled', { n: missing })} /> : null}
    </>
  )
}
