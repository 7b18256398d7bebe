// 意见反馈: the users' feedback by status (awaiting a reply first), with the
// replies so far and a reply box; the user sees the reply in their messages.
import { useState } from 'react'
import { useOutletContext } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Image, Input, Modal, Segmented, Space, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import type { SessionInfo } from '@/lib/session'
import { Page } from '@/components/Page'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { getFeedback, peopleKeys, replyFeedback, type Feedback, type FeedbackStatus } from './api'

export function FeedbackPage() {
  const t = useT()
  // The section is people's, but these calls are support's (and the
  // owner's): moderator and finance get a word instead of a refusal.
  const role = useOutletContext<SessionInfo | undefined>()?.role
  if (role && role !== 'support' && role !== 'owner')
    return (
      <Page title={t('people.fb.title')}>
        <Alert type="info" showIcon title={t('people.supportOnly')} data-testid="people-support-only" />
      </Page>
    )
  return <FeedbackPageInner />
}

function FeedbackPageInner() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [status, setStatus] = useState<FeedbackStatus | ''>('open')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [replying, setReplying] = useState<Feedback | null>(null)
  const [text, setText] = useState('')
  const q = useQuery({ queryKey: peopleKeys.feedback(status, cursor), queryFn: () => getFeedback(status, cursor) })
  const reply = useMutation({
    mutationFn: (v: { id: number; reply: string }) => replyFeedback(v.id, v.reply),
    onSuccess: () => {
      void message.success(t('people.fb.sent'))
      setReplying(null)
      setText('')
      void qc.invalidateQueries({ queryKey: peopleKeys.feedbackAll })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <Page title={t('people.fb.title')}>
      <Segmented<FeedbackStatus | ''>
        value={status}
        onChange={(v) => {
          setStatus(v)
          setPager(firstPage)
        }}
        options={(['open', 'replied', ''] as const).map((s) => ({ value: s, label: t((s ? `people.fb.${s}` : 'people.apps.all') as MessageKey) }))}
        data-testid="fb-status"
      />
      <div className="results">
        <QueryTable<Feedback>
          query={q}
          empty={t('people.fb.empty')}
          rowKey="id"
          dataSource={q.data?.list ?? []}
          data-testid="fb-table"
          columns={[
            { title: 'ID', dataIndex: 'id', responsive: ['md'] },
            { title: t('people.user'), dataIndex: 'uid', responsive: ['md'] },
            {
              title: t('people.fb.content'),
              dataIndex: 'content',
              render: (c: string, f) => (
                <div className="fb-content">
                  <Typography.Paragraph className="pre-wrap" ellipsis={{ rows: 3, expandable: true }}>
                    {c}
                  </Typography.Paragraph>
                  {f.images.length > 0 ? (
                    <Image.PreviewGroup>
                      <Space wrap>
                        {f.images.map((i) => (
                          <Image key={i.id} src={i.thumb} preview={{ src: i.display }} width={56} height={56} />
                        ))}
                      </Space>
                    </Image.PreviewGroup>
                  ) : null}
                  {f.replies.map((r) => (
                    <Typography.Text key={r.id} type="secondary" className="fb-reply">
                      {t('people.fb.reply')}（{formatTime(r.createdAt)}）：{r.body}
                    </Typography.Text>
                  ))}
                </div>
              ),
            },
            { title: t('people.fb.contact'), dataIndex: 'contact', render: (c: string) => c || '—', responsive: ['lg'] },
            { title: t('people.state'), dataIndex: 'status', render: (s: FeedbackStatus) => <Tag color={s === 'open' ? 'gold' : 'green'}>{t(`people.fb.${s}` as MessageKey)}</Tag> },
            { title: t('people.apps.submitted'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
            {
              title: t('common.actions'),
              key: 'reply',
              render: (_, f) => (
                <Button type="link" size="small" onClick={() => setReplying(f)} data-testid={`fb-reply-${f.id}`}>
                  {t('people.fb.reply')}
                </Button>
              ),
            },
          ]}
        />
        <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      </div>
      <Modal
        open={replying !== null}
        title={t('people.fb.replyTitle', { id: replying?.id ?? '' })}
        onCancel={() => setReplying(null)}
        okText={t('people.fb.reply')}
        cancelText={t('common.cancel')}
        okButtonProps={{ disabled: text.trim() === '', loading: reply.isPending, ...{ 'data-testid': 'fb-reply-submit' } }}
        onOk={() => replying && reply.mutate({ id: replying.id, reply: text.trim() })}
        destroyOnHidden
      >
        <div className="stack">
          {replying ? <Typography.Paragraph className="pre-wrap" type="secondary">{replying.content}</Typography.Paragraph> : null}
          <Input.TextArea value={text} onChange={(e) => setText(e.target.value)} maxLength={1000} showCount rows={4} placeholder={t('people.fb.replyText')} data-testid="fb-reply-text" />
        </div>
      </Modal>
    </Page>
  )
}
