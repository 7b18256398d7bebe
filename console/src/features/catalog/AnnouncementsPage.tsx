// 内容 → 公告: every announcement (scheduled, showing, ended), newest
// first; create and edit in a drawer (title, content, link, order, window),
// delete. The phone app shows those whose window holds now
// (GET /api/app/modules/announce), each link followed as lib/links.ts says.
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Drawer, Form, Input, InputNumber } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, deleteAnnouncement, getAnnouncements, saveAnnouncement, type Announcement, type AnnouncementInput } from './api'
import { MAX_SORT, checkLink, toSeconds } from './validate'
import { WindowFields, type WindowValues } from './WindowFields'
import { WindowTag, WindowText, useProblemText, EditDelete } from './shared'
import { useDrawerSize, useKeyset, useSave } from '@/components/hooks'

interface FormValues extends WindowValues {
  title: string
  content: string
  link: string
  sort: number
}

export function AnnouncementsPage() {
  const t = useT()
  const ks = useKeyset()
  const size = useDrawerSize()
  const problem = useProblemText()
  const q = useQuery({ queryKey: catalogKeys.announcements(ks.cursor), queryFn: () => getAnnouncements(ks.cursor), placeholderData: keepPreviousData })
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const save = useSave((a: AnnouncementInput) => saveAnnouncement(a), 'catalog.saved', catalogKeys.all, () => setEditing(null))
  const remove = useSave((id: number) => deleteAnnouncement(id), 'catalog.deleted', catalogKeys.all)
  const open = (a: Announcement | 'new') => {
    setEditing(a)
    form.resetFields()
    if (a !== 'new')
      form.setFieldsValue({ title: a.title, content: a.content, link: a.link, sort: a.sort, startsAt: a.startsAt ? dayjs(a.startsAt * 1000) : null, endsAt: a.endsAt ? dayjs(a.endsAt * 1000) : null })
  }
  const submit = (v: FormValues) =>
    save.mutate({
      id: editing && editing !== 'new' ? editing.id : undefined,
      title: v.title.trim(),
      content: (v.content ?? '').trim(),
      link: (v.link ?? '').trim(),
      sort: v.sort ?? 0,
      startsAt: toSeconds(v.startsAt?.valueOf()),
      endsAt: toSeconds(v.endsAt?.valueOf()),
    })
  return (
    <Page
      title={t('catalog.announcements')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="announcement-create">
          {t('catalog.announcements.create')}
        </Button>
      }
    >
      <QueryTable<Announcement>
        query={q}
        empty={t('catalog.announcements.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="announcements-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('catalog.title'), dataIndex: 'title' },
          { title: t('catalog.state'), dataIndex: 'state', render: (s: Announcement['state']) => <WindowTag state={s} /> },
          { title: t('catalog.window'), key: 'window', render: (_, a) => <WindowText startsAt={a.startsAt} endsAt={a.endsAt} />, responsive: ['md'] },
          { title: t('catalog.link'), dataIndex: 'link', render: (l: string) => <span className="mono">{l || '—'}</span>, responsive: ['lg'] },
          { title: t('catalog.sort'), dataIndex: 'sort', responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, a) => <EditDelete onEdit={() => open(a)} onDelete={() => remove.mutate(a.id)} deleting={remove.isPending && remove.variables === a.id} editTestId={`announcement-edit-${a.id}`} />,
          },
        ]}
      />
      <Pager labels="page" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('catalog.announcements.create') : t('catalog.edit')}
        size={size}
        forceRender
        data-testid="announcement-drawer"
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="announcement-submit">
            {t('catalog.save')}
          </Button>
        }
      >
        <Form<FormValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ sort: 0 }}>
          <Form.Item name="title" label={t('catalog.title')} rules={[{ required: true, whitespace: true, message: t('catalog.needTitle') }, { max: 100, message: t('catalog.titleLong') }]}>
            <Input maxLength={100} data-testid="announcement-title" />
          </Form.Item>
          <Form.Item name="content" label={t('catalog.content')} rules={[{ max: 2000, message: t('catalog.contentLong') }]}>
            <Input.TextArea rows={5} maxLength={2000} showCount data-testid="announcement-content" />
          </Form.Item>
          <Form.Item
            name="link"
            label={t('catalog.link')}
            extra={t('catalog.linkHint')}
            rules={[{ validator: (_, v: string | undefined) => { const p = problem(checkLink(v ?? '')); return p ? Promise.reject(new Error(p)) : Promise.resolve() } }]}
          >
            <Input placeholder="/mine/vipcenter" data-testid="announcement-link" />
          </Form.Item>
          <Form.Item name="sort" label={t('catalog.sort')} extra={t('catalog.sortHint')}>
            <InputNumber min={0} max={MAX_SORT} precision={0} className="full" />
          </Form.Item>
          <WindowFields />
        </Form>
      </Drawer>
    </Page>
  )
}
