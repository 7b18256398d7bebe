// 审核 → 评论: every comment newest first (or one post's), with removal
// and its reason (the author is told).
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, InputNumber, Tag } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { getComments, modKeys, removeComment, type AdminComment } from './api'
import { ModReasonModal } from './ReasonModal'

export function CommentsPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [post, setPost] = useState<number | undefined>()
  const [pager, setPager] = useState<PagerState>(firstPage)
  const cursor = cursorOf(pager)
  const [removing, setRemoving] = useState<AdminComment | null>(null)
  const q = useQuery({ queryKey: modKeys.comments(post, cursor), queryFn: () => getComments(post, cursor), placeholderData: keepPreviousData })
  const remove = useMutation({
    mutationFn: (v: { id: number; reason: string }) => removeComment(v.id, v.reason),
    onSuccess: () => {
      void message.success(t('mod.removed'))
      setRemoving(null)
      void qc.invalidateQueries({ queryKey: modKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <Page title={t('mod.nav.comments')}>
      <Form<{ post?: number }>
        layout="inline"
        className="filters"
        onFinish={(v) => {
          setPost(v.post || undefined)
          setPager(firstPage)
        }}
      >
        <Form.Item name="post" label={t('mod.postFilter')}>
          <InputNumber min={1} precision={0} className="filter-select" data-testid="mod-comments-post" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
      </Form>
      <QueryTable<AdminComment>
        query={q}
        empty={t('mod.commentsEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="mod-comments-table"
        columns={[
          { title: t('mod.id'), dataIndex: 'id' },
          { title: t('mod.post'), dataIndex: 'postId', responsive: ['sm'] },
          { title: t('mod.author'), key: 'author', render: (_, c) => `${c.author.name} (${c.author.uid})`, responsive: ['md'] },
          { title: t('mod.text'), dataIndex: 'text', render: (s: string) => <span className="mod-text">{s}</span> },
          { title: t('mod.state'), dataIndex: 'state', render: (s: string) => <Tag color={s === 'published' ? 'green' : 'default'}>{s}</Tag> },
          { title: t('mod.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, c) => (
              <Button size="small" danger disabled={c.state !== 'published' || remove.isPending} onClick={() => setRemoving(c)} data-testid={`mod-comment-remove-${c.id}`}>
                {t('mod.remove')}
              </Button>
            ),
          },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <ModReasonModal
        open={removing !== null}
        title={t('mod.removeTitle', { what: t('mod.comment') })}
        pending={remove.isPending}
        onCancel={() => setRemoving(null)}
        onOk={(v) => removing && remove.mutate({ id: removing.id, reason: v.reason })}
      />
    </Page>
  )
}
