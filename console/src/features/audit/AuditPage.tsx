// The audit log: filters by operator, action, target and time (kept in the
// URL, so a filtered view can be linked to: the people drawer links here),
// pages newer/older on the server's cursor, each entry's before/after in a
// drawer, and a CSV export of the current filters.
import { useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { App, Button, DatePicker, Form, Input, Space, Tooltip, Typography } from 'antd'
import { DownloadOutlined, SearchOutlined } from '@ant-design/icons'
import dayjs, { type Dayjs } from 'dayjs'
import { useT } from '@/i18n'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { save } from '@/lib/save'
import { formatTime, toRFC3339 } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { auditKeys, exportAudit, getAudit, type AuditFilters, type AuditRow } from './api'
import { AuditDrawer } from './AuditDrawer'

const FILTERS = ['actor', 'action', 'target', 'from', 'to'] as const

interface FormValues {
  actor?: string
  action?: string
  target?: string
  range?: [Dayjs | null, Dayjs | null] | null
}

export function AuditPage() {
  const t = useT()
  const { message } = App.useApp()
  const [params, setParams] = useSearchParams()
  const filters: AuditFilters = useMemo(() => Object.fromEntries(FILTERS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v)), [params])
  const [pager, setPager] = useState<PagerState>(firstPage)
  const [open, setOpen] = useState<AuditRow | null>(null)
  const [exporting, setExporting] = useState(false)
  const cursor = cursorOf(pager)
  const q = useQuery({ queryKey: auditKeys.list(filters, cursor), queryFn: () => getAudit(filters, cursor), placeholderData: keepPreviousData })

  const apply = (v: FormValues) => {
    const next = new URLSearchParams()
    if (v.actor?.trim()) next.set('actor', v.actor.trim())
    if (v.action?.trim()) next.set('action', v.action.trim())
    if (v.target?.trim()) next.set('target', v.target.trim())
    if (v.range?.[0]) next.set('from', toRFC3339(v.range[0].startOf('minute').valueOf()))
    // The server's bound is from <= at < to: the end minute is included whole.
    if (v.range?.[1]) next.set('to', toRFC3339(v.range[1].startOf('minute').add(1, 'minute').valueOf()))
    setParams(next)
    setPager(firstPage)
  }

  const runExport = async () => {
    setExporting(true)
    try {
      const f = await exportAudit(filters)
      save(f.blob, f.filename === 'download' ? 'audit.csv' : f.filename)
      void message.success(t('audit.exported', { file: f.filename }))
    } catch (e) {
      void message.error(errorTip(e, t))
    } finally {
      setExporting(false)
    }
  }

  const initial: FormValues = {
    actor: filters.actor,
    action: filters.action,
    target: filters.target,
    range: filters.from || filters.to ? [filters.from ? dayjs(filters.from) : null, filters.to ? dayjs(filters.to).subtract(1, 'minute') : null] : null,
  }

  return (
    <Page
      title={t('audit.title')}
      extra={
        <Tooltip title={t('audit.exportHint')}>
          <Button icon={<DownloadOutlined />} loading={exporting} onClick={() => void runExport()} data-testid="audit-export">
            {t('audit.export')}
          </Button>
        </Tooltip>
      }
    >
      <Form<FormValues> layout="inline" className="filters" initialValues={initial} onFinish={apply} key={params.toString()}>
        <Form.Item name="actor" label={t('audit.actor')}>
          <Input placeholder={t('audit.actorHint')} allowClear inputMode="numeric" data-testid="audit-actor" />
        </Form.Item>
        <Form.Item name="action" label={t('audit.action')}>
          <Input placeholder={t('audit.actionHint')} allowClear data-testid="audit-action" />
        </Form.Item>
        <Form.Item name="target" label={t('audit.target')}>
          <Input placeholder={t('audit.targetHint')} allowClear data-testid="audit-target" />
        </Form.Item>
        <Form.Item name="range" label={t('audit.range')}>
          <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" allowEmpty={[true, true]} />
        </Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="audit-search">
            {t('common.search')}
          </Button>
          <Button
            onClick={() => {
              setParams(new URLSearchParams())
              setPager(firstPage)
            }}
          >
            {t('common.reset')}
          </Button>
        </Space>
      </Form>
      <QueryTable<AuditRow>
        query={q}
        empty={t('audit.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="audit-table"
        onRow={(r) => ({ onClick: () => setOpen(r), className: 'clickable' })}
        columns={[
          { title: t('audit.time'), dataIndex: 'at', render: (v: AuditRow['at']) => formatTime(v), width: 170 },
          { title: t('audit.actor'), key: 'actor', render: (_, r) => (r.actor === 0 ? t('common.shell') : r.actorAccount || `uid ${r.actor}`) },
          { title: t('audit.action'), dataIndex: 'action', render: (a: string) => <Typography.Text code>{a}</Typography.Text> },
          { title: t('audit.target'), dataIndex: 'target' },
          { title: t('audit.ip'), dataIndex: 'ip', responsive: ['md'] },
          {
            title: t('common.actions'),
            key: 'open',
            render: (_, r) => (
              <Button
                type="link"
                size="small"
                onClick={(e) => {
                  e.stopPropagation()
                  setOpen(r)
                }}
              >
                {t('common.details')}
              </Button>
            ),
          },
        ]}
      />
      <Pager
        page={pager.index + 1}
        hasPrev={pager.index > 0}
        hasNext={!!q.data?.nextCursor}
        busy={q.isFetching}
        onPrev={() => setPager(newer)}
        onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))}
      />
      <AuditDrawer row={open} onClose={() => setOpen(null)} />
    </Page>
  )
}
