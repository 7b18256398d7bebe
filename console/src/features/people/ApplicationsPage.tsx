// 创作者申请: applications by status (pending first, oldest first, as the
// server orders them), approve with a confirmation, reject with a reason
// the user sees.
import { useState } from 'react'
import { useOutletContext } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Input, Modal, Popconfirm, Segmented, Space, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import type { SessionInfo } from '@/lib/session'
import { Page } from '@/components/Page'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { decideApplication, getApplications, peopleKeys, type Application, type AppStatus } from './api'

const statusColor: Record<AppStatus, string> = { pending: 'gold', approved: 'green', rejected: 'red' }

export function ApplicationsPage() {
  const t = useT()
  // The section is people's, but these calls are support's (and the
  // owner's): moderator and finance get a word instead of a refusal.
  const role = useOutletContext<SessionInfo | undefined>()?.role
  if (role && role !== 'support' && role !== 'owner')
    return (
      <Page title={t('people.apps.title')}>
        <Alert type="info" showIcon title={t('people.supportOnly')} data-testid="people-support-only" />
      </Page>
    )
  return <ApplicationsPageInner />
}

function ApplicationsPageInner() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [status, setStatus] = useState<AppStatus | ''>('pending')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [rejecting, setRejecting] = useState<Application | null>(null)
  const [reason, setReason] = useState('')
  const q = useQuery({ queryKey: peopleKeys.applications(status, cursor), queryFn: () => getApplications(status, cursor) })
  const decide = useMutation({
    mutationFn: (v: { id: number; approve: boolean; reason?: string }) => decideApplication(v.id, v.approve, v.reason),
    onSuccess: (r, v) => {
      if (!r.changed) void message.warning(t('people.apps.decidedBefore'))
      else void message.success(t(v.approve ? 'people.apps.approved.done' : 'people.apps.rejected.done'))
      setRejecting(null)
      setReason('')
      void qc.invalidateQueries({ queryKey: peopleKeys.applicationsAll })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <Page title={t('people.apps.title')}>
      <Segmented<AppStatus | ''>
        value={status}
        onChange={(v) => {
          setStatus(v)
          setPager(firstPage)
        }}
        options={(['pending', 'approved', 'rejected', ''] as const).map((s) => ({ value: s, label: t((s ? `people.apps.${s}` : 'people.apps.all') as MessageKey) }))}
        data-testid="apps-status"
      />
      <div className="results">
        <QueryTable<Application>
          query={q}
          empty={t('people.apps.empty')}
          rowKey="id"
          dataSource={q.data?.list ?? []}
          data-testid="apps-table"
          expandable={{ expandedRowRender: (a) => <Typography.Paragraph className="pre-wrap">{a.intro}</Typography.Paragraph> }}
          columns={[
            { title: 'ID', dataIndex: 'id' },
            { title: t('people.user'), dataIndex: 'uid', responsive: ['md'] },
            { title: t('people.apps.name'), dataIndex: 'name' },
            { title: t('people.apps.category'), dataIndex: 'category', responsive: ['md'] },
            { title: t('people.apps.contact'), dataIndex: 'contact', responsive: ['lg'] },
            {
              title: t('people.apps.status'),
              dataIndex: 'status',
              render: (s: AppStatus, a) => (
                <Space direction="vertical" size={0}>
                  <Tag color={statusColor[s]}>{t(`people.apps.${s}` as MessageKey)}</Tag>
                  {a.reason ? <Typography.Text type="secondary">{a.reason}</Typography.Text> : null}
                </Space>
              ),
            },
            { title: t('people.apps.submitted'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
            {
              title: t('common.actions'),
              key: 'decide',
              render: (_, a) =>
                a.status === 'pending' ? (
                  <Space>
                    <Popconfirm title={t('people.apps.approveConfirm')} onConfirm={() => decide.mutate({ id: a.id, approve: true })}>
                      <Button type="link" size="small" disabled={decide.isPending} data-testid={`app-approve-${a.id}`}>
                        {t('people.apps.approve')}
                      </Button>
                    </Popconfirm>
                    <Button type="link" size="small" danger disabled={decide.isPending} onClick={() => setRejecting(a)} data-testid={`app-reject-${a.id}`}>
                      {t('people.apps.reject')}
                    </Button>
                  </Space>
                ) : null,
            },
          ]}
        />
        <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      </div>
      <Modal
        open={rejecting !== null}
        title={t('people.apps.rejectTitle', { id: rejecting?.id ?? '' })}
        onCancel={() => setRejecting(null)}
        okText={t('people.apps.reject')}
        cancelText={t('common.cancel')}
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: decide.isPending, ...{ 'data-testid': 'app-reject-submit' } }}
        onOk={() => rejecting && decide.mutate({ id: rejecting.id, approve: false, reason: reason.trim() })}
        destroyOnHidden
      >
        <Input.TextArea value={reason} onChange={(e) => setReason(e.target.value)} maxLength={200} showCount rows={3} placeholder={t('people.apps.reason')} data-testid="app-reject-reason" />
      </Modal>
    </Page>
  )
}
