// 内容 → 图集: every gallery, drafts too, newest first (keyset, no
// totals); filter by state and title; publish / unpublish; edit the title
// and the access (VIP level, coin price). Pictures and their order are set
// by POST /api/admin/galleries(/images) with uploaded picture ids (see
// docs/api.md *Galleries*): the console has no picture upload yet.
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Form, Input, InputNumber, Modal, Select, Space, Tag } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, getGalleries, publishGallery, updateGallery, type Gallery, type GalleryFilters } from './api'
import { useKeyset } from './keyset'
import { useSave } from './shared'

interface EditValues {
  title: string
  vipLevel: number
  coins: number
}

export function GalleriesPage() {
  const t = useT()
  const ks = useKeyset()
  const [filters, setFilters] = useState<GalleryFilters>({})
  const q = useQuery({ queryKey: catalogKeys.galleries(filters, ks.cursor), queryFn: () => getGalleries(filters, ks.cursor), placeholderData: keepPreviousData })
  const [editing, setEditing] = useState<Gallery | null>(null)
  const [form] = Form.useForm<EditValues>()
  const publish = useSave((g: Gallery) => publishGallery(g.id, !g.published), 'catalog.saved', catalogKeys.all)
  const save = useSave((v: EditValues & { id: number }) => updateGallery(v.id, { title: v.title.trim(), vipLevel: v.vipLevel, coins: v.coins }), 'catalog.saved', catalogKeys.all, () => setEditing(null))
  const access = (g: Gallery) => (g.coins > 0 ? t('catalog.galleries.coins', { n: g.coins }) : t(`catalog.galleries.vip${Math.min(Math.max(g.vipLevel, 0), 2)}` as MessageKey))
  return (
    <Page title={t('catalog.galleries')}>
      <Form<{ published?: 0 | 1; title?: string }>
        layout="inline"
        className="filters"
        onFinish={(v) => {
          setFilters({ published: v.published, title: v.title?.trim() || undefined })
          ks.reset()
        }}
      >
        <Form.Item name="published" label={t('catalog.state')}>
          <Select
            allowClear
            placeholder={t('catalog.galleries.allStates')}
            className="filter-select"
            options={[
              { value: 1, label: t('catalog.galleries.published') },
              { value: 0, label: t('catalog.galleries.draft') },
            ]}
          />
        </Form.Item>
        <Form.Item name="title" label={t('catalog.title')}>
          <Input allowClear maxLength={80} data-testid="galleries-title" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
      </Form>
      <QueryTable<Gallery>
        query={q}
        empty={t('catalog.galleries.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="galleries-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('catalog.galleries.cover'), dataIndex: 'cover', render: (c: string) => (c ? <img className="cover-thumb" src={c} alt="" loading="lazy" /> : <span className="cover-thumb" />), responsive: ['sm'] },
          { title: t('catalog.title'), dataIndex: 'title' },
          { title: t('catalog.galleries.images'), dataIndex: 'imageCount', responsive: ['md'] },
          { title: t('catalog.galleries.access'), key: 'access', render: (_, g) => access(g), responsive: ['md'] },
          { title: t('catalog.state'), dataIndex: 'published', render: (p: boolean) => <Tag color={p ? 'green' : 'default'}>{p ? t('catalog.galleries.published') : t('catalog.galleries.draft')}</Tag> },
          { title: t('catalog.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, g) => (
              <Space wrap>
                <Button size="small" loading={publish.isPending && publish.variables?.id === g.id} onClick={() => publish.mutate(g)} data-testid={`gallery-publish-${g.id}`}>
                  {g.published ? t('catalog.galleries.unpublish') : t('catalog.galleries.publish')}
                </Button>
                <Button
                  size="small"
                  onClick={() => {
                    setEditing(g)
                    form.setFieldsValue({ title: g.title, vipLevel: g.vipLevel, coins: g.coins })
                  }}
                >
                  {t('catalog.edit')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Pager labels="page" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />
      <Modal
        open={editing !== null}
        title={t('catalog.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okText={t('catalog.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending }}
        forceRender
      >
        <Form<EditValues> form={form} layout="vertical" requiredMark={false} onFinish={(v) => editing && save.mutate({ ...v, id: editing.id })}>
          <Form.Item name="title" label={t('catalog.title')} rules={[{ required: true, whitespace: true, message: t('catalog.needTitle') }, { max: 100, message: t('catalog.titleLong') }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="vipLevel" label={t('catalog.galleries.access')}>
            <Select options={[0, 1, 2].map((v) => ({ value: v, label: t(`catalog.galleries.vip${v}` as MessageKey) }))} />
          </Form.Item>
          <Form.Item name="coins" label={t('catalog.galleries.price')} extra={t('catalog.galleries.priceHint')}>
            <InputNumber min={0} max={100000} precision={0} className="full" />
          </Form.Item>
        </Form>
      </Modal>
    </Page>
  )
}
