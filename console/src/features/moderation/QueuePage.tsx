// 审核 → 帖子审核: the pending posts, oldest first; approve or reject one,
// or select several and decide them together (one call, ids).
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Space, Tag, Typography } from 'antd'
import { CheckOutlined, CloseOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { getPending, modKeys, reviewPosts, type AdminPost } from './api'
import { ModReasonModal } from './ReasonModal'

export function QueuePage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [selected, setSelected] = useState<number[]>([])
  const [rejecting, setRejecting] = useState<number[] | null>(null)
  const q = useQuery({ queryKey: modKeys.pending(cursor), queryFn: () => getPending(cursor), placeholderData: keepPreviousData })
  const review = useMutation({
    mutationFn: (v: { ids: number[]; approve: boolean; reason?: string }) => reviewPosts(v.ids, v.approve, v.reason),
    onSuccess: (r, v) => {
      void message.success(t(v.approve ? 'mod.approved' : 'mod.rejected', { n: r.changed }))
      if (r.skipped.length > 0) void message.warning(t('mod.skipped', { n: r.skipped.length }))
      setSelected((s) => s.filter((id) => !v.ids.includes(id)))
      setRejecting(null)
      void qc.invalidateQueries({ queryKey: modKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const busy = review.isPending
  return (
    <Page
      title={t('mod.queue')}
      extra={
        <Space wrap>
          <Button icon={<CheckOutlined />} disabled={selected.length === 0 || busy} onClick={() => review.mutate({ ids: selected, approve: true })} data-testid="mod-bulk-approve">
            {t('mod.approveSelected', { n: selected.length })}
          </Button>
          <Button danger icon={<CloseOutlined />} disabled={selected.length === 0 || busy} onClick={() => setRejecting(selected)} data-testid="mod-bulk-reject">
            {t('mod.rejectSelected', { n: selected.length })}
          </Button>
        </Space>
      }
    >
      <Alert type="info" showIcon title={t('mod.queueHint')} className="mod-hint" />
      <QueryTable<AdminPost>
        query={q}
        empty={t('mod.queueEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="mod-queue-table"
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), getCheckboxProps: (p) => ({ 'data-testid': `mod-select-${p.id}` }) as object }}
        columns={[
          { title: t('mod.id'), dataIndex: 'id' },
          { title: t('mod.author'), key: 'author', render: (_, p) => `${p.author.name} (${p.author.uid})`, responsive: ['sm'] },
          {
            title: t('mod.post'),
            key: 'post',
            render: (_, p) => (
              <div className="mod-text">
                {p.title ? <Typography.Text strong>{p.title}</Typography.Text> : null}
                <Typography.Paragraph type="secondary" className="mod-para mod-clamp">
                  {p.summary}
                </Typography.Paragraph>
              </div>
            ),
          },
          { title: t('mod.kind'), dataIndex: 'kind', render: (k: string) => <Tag>{k}</Tag>, responsive: ['md'] },
          { title: t('mod.reports'), dataIndex: 'openReports', responsive: ['lg'] },
          { title: t('mod.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, p) => (
              <Space wrap>
                <Button size="small" type="primary" disabled={busy} loading={busy && review.variables?.ids.length === 1 && review.variables.ids[0] === p.id} onClick={() => review.mutate({ ids: [p.id], approve: true })} data-testid={`mod-approve-${p.id}`}>
                  {t('mod.approve')}
                </Button>
                <Button size="small" danger disabled={busy} onClick={() => setRejecting([p.id])} data-testid={`mod-reject-${p.id}`}>
                  {t('mod.reject')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <ModReasonModal
        open={rejecting !== null}
        title={t('mod.rejectTitle', { n: rejecting?.length ?? 0 })}
        pending={busy}
        onCancel={() => setRejecting(null)}
        onOk={(v) => rejecting && review.mutate({ ids: rejecting, approve: false, reason: v.reason })}
      />
    </Page>
  )
}
