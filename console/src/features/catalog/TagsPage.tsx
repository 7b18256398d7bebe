// 内容 → 标签: every tag with how many videos carry it; create, rename,
// reorder, delete (which takes it off every video).
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, InputNumber, Modal, Popconfirm, Space } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, createTag, deleteTag, getTags, updateTag, type AdminTag } from './api'
import { MAX_SORT } from './validate'
import { useSave } from '@/components/hooks'

interface TagForm {
  name: string
  sort: number
}

export function TagsPage() {
  const t = useT()
  const q = useQuery({ queryKey: catalogKeys.tags, queryFn: getTags })
  const [editing, setEditing] = useState<AdminTag | 'new' | null>(null)
  const [form] = Form.useForm<TagForm>()
  const save = useSave(
    (v: TagForm & { id?: number }) => (v.id ? updateTag(v.id, v.name.trim(), v.sort) : createTag(v.name.trim(), v.sort)),
    'catalog.saved',
    catalogKeys.tags,
    () => setEditing(null),
  )
  const remove = useSave((id: number) => deleteTag(id), 'catalog.deleted', catalogKeys.tags)
  const open = (tag: AdminTag | 'new') => {
    setEditing(tag)
    form.setFieldsValue(tag === 'new' ? { name: '', sort: 0 } : { name: tag.name, sort: tag.sort })
  }
  return (
    <Page
      title={t('catalog.tags')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="tag-create">
          {t('catalog.tags.create')}
        </Button>
      }
    >
      <QueryTable<AdminTag>
        query={q}
        empty={t('catalog.tags.empty')}
        rowKey="id"
        dataSource={q.data}
        data-testid="tags-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('catalog.tags.name'), dataIndex: 'name' },
          { title: t('catalog.sort'), dataIndex: 'sort' },
          { title: t('catalog.tags.videos'), dataIndex: 'videoCount' },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, tag) => (
              <Space wrap>
                <Button size="small" onClick={() => open(tag)} data-testid={`tag-edit-${tag.id}`}>
                  {t('catalog.edit')}
                </Button>
                <Popconfirm title={t('catalog.tags.deleteConfirm', { n: tag.videoCount })} onConfirm={() => remove.mutate(tag.id)} okButtonProps={{ danger: true }}>
                  <Button size="small" danger loading={remove.isPending && remove.variables === tag.id}>
                    {t('catalog.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('catalog.tags.create') : t('catalog.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okText={t('catalog.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending, ...{ 'data-testid': 'tag-submit' } }}
        destroyOnHidden
        forceRender
      >
        <Form<TagForm> form={form} layout="vertical" requiredMark={false} onFinish={(v) => save.mutate({ ...v, id: editing && editing !== 'new' ? editing.id : undefined })}>
          <Form.Item name="name" label={t('catalog.tags.name')} rules={[{ required: true, whitespace: true, message: t('catalog.tags.needName') }, { max: 20, message: t('catalog.tags.nameLong') }]}>
            <Input maxLength={20} data-testid="tag-name" />
          </Form.Item>
          <Form.Item name="sort" label={t('catalog.sort')} extra={t('catalog.sortHint')}>
            <InputNumber min={0} max={MAX_SORT} precision={0} className="full" />
          </Form.Item>
        </Form>
      </Modal>
    </Page>
  )
}
