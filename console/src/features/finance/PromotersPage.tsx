// 资金 → 推广员申请: the applications by state (the review queue oldest
// first, the others newest first), each with the applicant's invitees and
// what they paid; approve, or reject with a reason the user sees (POST
// /api/admin/promoters/decide). A decided application answers as it is.
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { App, Button, Form, Input, Modal, Popconfirm, Segmented, Space, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { decidePromoter, financeKeys, getPromoters, type AppState, type PromoterApplication } from './api'
import { reasonOK } from './logic'
import { Money } from './shared'
import { useSave } from '@/components/hooks'

type Filter = AppState | 'all'
const FILTERS: Filter[] = ['pending', 'approved', 'rejected', 'all']
const stateColor: Record<AppState, string> = { pending: 'blue', approved: 'green', rejected: 'red' }

export function PromotersPage() {
  const t = useT()
  const { message } = App.useApp()
  const [filter, setFilter] = useState<Filter>('pending')
  const [page, setPage] = useState(1)
  const state = filter === 'all' ? '' : filter
  const q = useQuery({ queryKey: financeKeys.promoters(state, page), queryFn: () => getPromoters(state, page), placeholderData: keepPreviousData })
  const [rejecting, setRejecting] = useState<PromoterApplication | null>(null)
  const [form] = Form.useForm<{ reason: string }>()
  const decide = useSave(
    (v: { id: number; approve: boolean; reason: string }) => decidePromoter(v.id, v.approve, v.reason),
    null,
    ['finance', 'promoters'],
    (r, v) => {
      setRejecting(null)
      if (!r.changed) void message.info(t('finance.promoters.already'))
      else void message.success(t(v.approve ? 'finance.promoters.approved' : 'finance.promoters.rejected'))
    },
  )
  const busy = (id: number) => decide.isPending && decide.variables?.id === id
  return (
    <Page title={t('finance.nav.promoters')}>
      <Segmented<Filter>
        className="finance-gap"
        value={filter}
        onChange={(f) => {
          setFilter(f)
          setPage(1)
        }}
        options={FILTERS.map((f) => ({ value: f, label: t(`finance.promoters.state.${f}` as MessageKey) }))}
        data-testid="promoters-filter"
      />
      <QueryTable<PromoterApplication>
        query={q}
        empty={t('finance.promoters.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="promoters-table"
        columns={[
          {
            title: t('finance.promoters.user'),
            key: 'user',
            render: (_, a) => (
              <Space direction="vertical" size={0}>
                <span>{a.name || a.account}</span>
                <Typography.Text type="secondary">
                  UID {a.uid}
                  {a.account ? ` · ${a.account}` : ''}
                </Typography.Text>
              </Space>
            ),
          },
          { title: t('finance.promoters.channel'), dataIndex: 'channel' },
          { title: t('finance.promoters.contact'), dataIndex: 'contact', responsive: ['sm'] },
          {
            title: t('finance.promoters.intro'),
            dataIndex: 'intro',
            responsive: ['lg'],
            render: (s: string) => <span className="finance-text">{s || '—'}</span>,
          },
          { title: t('finance.promoters.invitees'), dataIndex: 'invitees', responsive: ['md'] },
          { title: t('finance.promoters.paid'), dataIndex: 'paidCents', render: (c: number) => <Money cents={c} />, responsive: ['md'] },
          { title: t('finance.promoters.appliedAt'), dataIndex: 'appliedAt', render: (at: PromoterApplication['appliedAt']) => formatTime(at), responsive: ['md'] },
          {
            title: t('finance.promoters.state'),
            key: 'state',
            render: (_, a) => (
              <Space direction="vertical" size={0}>
                <Tag color={stateColor[a.state]}>{t(`finance.promoters.state.${a.state}` as MessageKey)}</Tag>
                {a.reason ? <Typography.Text type="secondary">{a.reason}</Typography.Text> : null}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, a) =>
              a.state === 'pending' ? (
                <Space direction="vertical" size={4}>
                  <Popconfirm title={t('finance.promoters.approve') + '?'} onConfirm={() => decide.mutate({ id: a.id, approve: true, reason: '' })}>
                    <Button size="small" type="primary" loading={busy(a.id) && decide.variables?.approve} data-testid={`promoter-approve-${a.id}`}>
                      {t('finance.promoters.approve')}
                    </Button>
                  </Popconfirm>
                  <Button
                    size="small"
                    danger
                    onClick={() => {
                      form.resetFields()
                      setRejecting(a)
                    }}
                    data-testid={`promoter-reject-${a.id}`}
                  >
                    {t('finance.promoters.reject')}
                  </Button>
                </Space>
              ) : null,
          },
        ]}
      />
      <Pager labels="page" page={page} hasPrev={page > 1} hasNext={!!q.data?.hasMore} busy={q.isFetching} onPrev={() => setPage((p) => p - 1)} onNext={() => setPage((p) => p + 1)} />
      <Modal
        open={rejecting !== null}
        title={t('finance.promoters.rejectTitle', { name: rejecting?.name || rejecting?.account || '' })}
        onCancel={() => setRejecting(null)}
        onOk={() => form.submit()}
        okText={t('common.confirm')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, loading: decide.isPending }}
        forceRender
      >
        <Form<{ reason: string }>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={(v) => rejecting && decide.mutate({ id: rejecting.id, approve: false, reason: v.reason.trim() })}
        >
          <Form.Item
            name="reason"
            label={t('finance.promoters.reason')}
            rules={[{ validator: (_, v: string | undefined) => (reasonOK(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('finance.promoters.needReason')))) }]}
          >
            <Input maxLength={200} showCount data-testid="promoter-reason" />
          </Form.Item>
        </Form>
      </Modal>
    </Page>
  )
}
