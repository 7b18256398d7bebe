// 审核 → 举报: three queues in tabs. Posts and comments: mark handled, or
// remove the target with a reason. Videos (one row per video): dismiss, or
// unpublish the video. Messages: dismiss, or mute the reported user.
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Popconfirm, Segmented, Space, Tabs, Tag, Typography } from 'antd'
import { useT, type MessageKey, type T } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import {
  getMessageReports,
  getPostReports,
  getVideoReports,
  modKeys,
  removeComment,
  removePost,
  resolveMessageReport,
  resolvePostReport,
  resolveVideoReports,
  type MessageReport,
  type PostReport,
  type ReportState,
  type VideoReports,
} from './api'
import { ModReasonModal } from './ReasonModal'

const REASONS = new Set(['illegal', 'vulgar', 'violence', 'copyright', 'broken', 'other', 'spam', 'porn', 'abuse'])
const reasonLabel = (t: T, r: string) => (REASONS.has(r) ? t(`mod.r.${r}` as MessageKey) : r)

function StateSwitch({ value, onChange }: { value: ReportState; onChange: (s: ReportState) => void }) {
  const t = useT()
  return (
    <Segmented<ReportState>
      className="mod-state"
      value={value}
      onChange={onChange}
      options={[
        { value: 'open', label: t('mod.open') },
        { value: 'resolved', label: t('mod.resolvedState') },
      ]}
    />
  )
}

function useDone() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  return {
    ok: (text: string) => {
      void message.success(text)
      void qc.invalidateQueries({ queryKey: modKeys.all })
    },
    fail: (e: unknown) => void message.error(errorTip(e, t)),
  }
}

function PostReports() {
  const t = useT()
  const done = useDone()
  const [state, setState] = useState<ReportState>('open')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [removing, setRemoving] = useState<PostReport | null>(null)
  const q = useQuery({ queryKey: modKeys.postReports(state, cursor), queryFn: () => getPostReports(state, cursor), placeholderData: keepPreviousData })
  const resolve = useMutation({ mutationFn: resolvePostReport, onSuccess: (r) => done.ok(t('mod.handled', { n: r.resolved })), onError: done.fail })
  const remove = useMutation({
    mutationFn: (v: { r: PostReport; reason: string }) => (v.r.commentId ? removeComment(v.r.commentId, v.reason) : removePost(v.r.postId, v.reason)),
    onSuccess: () => {
      setRemoving(null)
      done.ok(t('mod.removed'))
    },
    onError: done.fail,
  })
  const busy = resolve.isPending || remove.isPending
  return (
    <>
      <StateSwitch value={state} onChange={(s) => (setState(s), setPager(firstPage))} />
      <QueryTable<PostReport>
        query={q}
        empty={t('mod.reportsEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="mod-post-reports"
        columns={[
          { title: t('mod.id'), dataIndex: 'id', responsive: ['sm'] },
          { title: t('mod.target'), key: 'target', render: (_, r) => (r.commentId ? `${t('mod.comment')} #${r.commentId}` : `${t('mod.post')} #${r.postId}`) },
          { title: t('mod.text'), key: 'text', render: (_, r) => <span className="mod-text">{r.postTitle && !r.commentId ? `${r.postTitle} · ` : ''}{r.text}</span> },
          { title: t('common.reason'), dataIndex: 'reason', render: (s: string) => reasonLabel(t, s) },
          { title: t('mod.count'), dataIndex: 'openReports', responsive: ['md'] },
          { title: t('mod.reporter'), key: 'reporter', render: (_, r) => r.reporter.name, responsive: ['lg'] },
          { title: t('mod.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, r) =>
              r.state === 'open' ? (
                <Space wrap>
                  <Button size="small" disabled={busy} onClick={() => resolve.mutate(r.id)} data-testid={`mod-report-resolve-${r.id}`}>
                    {t('mod.resolve')}
                  </Button>
                  <Button size="small" danger disabled={busy || r.targetState === 'removed'} onClick={() => setRemoving(r)}>
                    {t('mod.remove')}
                  </Button>
                </Space>
              ) : (
                <Tag>{t('mod.done')}</Tag>
              ),
          },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <ModReasonModal
        open={removing !== null}
        title={t('mod.removeTitle', { what: removing?.commentId ? t('mod.comment') : t('mod.post') })}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onOk={(v) => removing && remove.mutate({ r: removing, reason: v.reason })}
      />
    </>
  )
}

function VideoReportsTab() {
  const t = useT()
  const done = useDone()
  const [state, setState] = useState<ReportState>('open')
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined])
  const cursor = cursors[cursors.length - 1]
  const q = useQuery({ queryKey: modKeys.videoReports(state, cursor), queryFn: () => getVideoReports(state, cursor), placeholderData: keepPreviousData })
  const resolve = useMutation({
    mutationFn: (v: { id: number; action: 'dismiss' | 'unpublish' }) => resolveVideoReports(v.id, v.action),
    onSuccess: (r) => done.ok(t('mod.handled', { n: r.resolved })),
    onError: done.fail,
  })
  return (
    <>
      <StateSwitch value={state} onChange={(s) => (setState(s), setCursors([undefined]))} />
      <QueryTable<VideoReports>
        query={q}
        empty={t('mod.reportsEmpty')}
        rowKey="videoId"
        dataSource={q.data?.list}
        data-testid="mod-video-reports"
        columns={[
          { title: t('mod.id'), dataIndex: 'videoId' },
          { title: t('mod.video'), dataIndex: 'title', render: (s: string) => <span className="mod-text">{s}</span> },
          { title: t('mod.state'), dataIndex: 'published', render: (p: boolean) => <Tag color={p ? 'green' : 'default'}>{p ? t('mod.published') : t('mod.unpublished')}</Tag>, responsive: ['sm'] },
          { title: t('mod.count'), dataIndex: 'count' },
          {
            title: t('mod.reasons'),
            dataIndex: 'reasons',
            render: (rs: Record<string, number>) => (
              <Space size={4} wrap>
                {Object.entries(rs).map(([k, n]) => (
                  <Tag key={k}>
                    {reasonLabel(t, k)} × {n}
                  </Tag>
                ))}
              </Space>
            ),
            responsive: ['md'],
          },
          { title: t('mod.lastAt'), dataIndex: 'lastAt', render: formatTime, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, v) =>
              state === 'open' ? (
                <Space wrap>
                  <Button size="small" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: v.videoId, action: 'dismiss' })} data-testid={`mod-video-dismiss-${v.videoId}`}>
                    {t('mod.dismiss')}
                  </Button>
                  <Popconfirm title={t('mod.unpublish')} onConfirm={() => resolve.mutate({ id: v.videoId, action: 'unpublish' })} okButtonProps={{ danger: true }}>
                    <Button size="small" danger disabled={resolve.isPending} data-testid={`mod-video-unpublish-${v.videoId}`}>
                      {t('mod.unpublish')}
                    </Button>
                  </Popconfirm>
                </Space>
              ) : (
                <Tag>{v.resolution === 'unpublish' ? t('mod.unpublish') : t('mod.dismiss')}</Tag>
              ),
          },
        ]}
      />
      <Pager
        labels="page"
        page={cursors.length}
        hasPrev={cursors.length > 1}
        hasNext={!!q.data?.nextCursor}
        busy={q.isFetching}
        onPrev={() => setCursors((c) => c.slice(0, -1))}
        onNext={() => q.data?.nextCursor && setCursors((c) => [...c, q.data.nextCursor ?? undefined])}
      />
    </>
  )
}

function MessageReportsTab() {
  const t = useT()
  const done = useDone()
  const [state, setState] = useState<ReportState>('open')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [muting, setMuting] = useState<MessageReport | null>(null)
  const q = useQuery({ queryKey: modKeys.messageReports(state, cursor), queryFn: () => getMessageReports(state, cursor), placeholderData: keepPreviousData })
  const resolve = useMutation({
    mutationFn: (v: { id: number; action: 'dismiss' | 'mute'; minutes?: number; reason?: string }) => resolveMessageReport(v.id, v.action, v.minutes, v.reason),
    onSuccess: () => {
      setMuting(null)
      done.ok(t('mod.handled', { n: 1 }))
    },
    onError: done.fail,
  })
  return (
    <>
      <StateSwitch value={state} onChange={(s) => (setState(s), setPager(firstPage))} />
      <QueryTable<MessageReport>
        query={q}
        empty={t('mod.reportsEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="mod-message-reports"
        expandable={
          q.data?.list.some((r) => r.messages.length > 0)
            ? {
          expandedRowRender: (r) => (
            <div className="mod-messages">
              {r.messages.map((m) => (
                <Typography.Paragraph key={m.id} className="mod-para">
                  <Typography.Text type="secondary">{m.from === r.reported.uid ? r.reported.name : r.reporter.name}：</Typography.Text>
                  {m.kind === 'text' ? m.text : `[${m.kind}]`}
                </Typography.Paragraph>
              ))}
            </div>
          ),
          rowExpandable: (r) => r.messages.length > 0,
        }
            : undefined
        }
        columns={[
          { title: t('mod.id'), dataIndex: 'id', responsive: ['sm'] },
          { title: t('mod.reported'), key: 'reported', render: (_, r) => <span className="mod-text">{r.reported.name} <Typography.Text type="secondary">({r.reported.uid})</Typography.Text></span> },
          { title: t('common.reason'), dataIndex: 'reason', render: (s: string) => <span className="mod-text">{s}</span> },
          { title: t('mod.reporter'), key: 'reporter', render: (_, r) => r.reporter.name, responsive: ['md'] },
          { title: t('mod.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, r) =>
              r.state === 'open' ? (
                <Space wrap>
                  <Button size="small" disabled={resolve.isPending} onClick={() => resolve.mutate({ id: r.id, action: 'dismiss' })} data-testid={`mod-message-dismiss-${r.id}`}>
                    {t('mod.dismiss')}
                  </Button>
                  <Button size="small" danger disabled={resolve.isPending} onClick={() => setMuting(r)} data-testid={`mod-message-mute-${r.id}`}>
                    {t('mod.mute')}
                  </Button>
                </Space>
              ) : (
                <Tag>{r.resolution === 'mute' ? t('mod.mute') : t('mod.dismiss')}</Tag>
              ),
          },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <ModReasonModal
        open={muting !== null}
        withMinutes
        title={t('mod.muteTitle', { name: muting?.reported.name ?? '' })}
        pending={resolve.isPending}
        onCancel={() => setMuting(null)}
        onOk={(v) => muting && resolve.mutate({ id: muting.id, action: 'mute', minutes: v.minutes, reason: v.reason })}
      />
    </>
  )
}

export function ReportsPage() {
  const t = useT()
  return (
    <Page title={t('mod.nav.reports')}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'posts', label: t('mod.tab.posts'), children: <PostReports /> },
          { key: 'videos', label: t('mod.tab.videos'), children: <VideoReportsTab /> },
          { key: 'messages', label: t('mod.tab.messages'), children: <MessageReportsTab /> },
        ]}
      />
    </Page>
  )
}
