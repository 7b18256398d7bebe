// 内容 → 图集: every gallery, drafts too, newest first (keyset, no
// totals); filter by state and title; publish / unpublish; edit the title
// and the access (VIP level, coin price); 新建图集 and the editor upload the
// pictures and set their order (GalleryDrawer, docs/api.md *Galleries*).
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Select, Space, Tag } from 'antd'
import { PlusOutlined, SearchOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, getGalleries, publishGallery, type Gallery, type GalleryFilters } from './api'
import { GalleryDrawer } from './GalleryDrawer'
import { useKeyset, useSave } from '@/components/hooks'

export function GalleriesPage() {
  const t = useT()
  const ks = useKeyset()
  const [filters, setFilters] = useState<GalleryFilters>({})
  const q = useQuery({ queryKey: catalogKeys.galleries(filters, ks.cursor), queryFn: () => getGalleries(filters, ks.cursor), placeholderData: keepPreviousData })
  const [editing, setEditing] = useState<Gallery | 'new' | null>(null)
  const publish = useSave((g: Gallery) => publishGallery(g.id, !g.published), 'catalog.saved', catalogKeys.all)
  const access = (g: Gallery) => (g.coins > 0 ? t('catalog.galleries.coins', { n: g.coins }) : t(`catalog.galleries.vip${Math.min(Math.max(g.vipLevel, 0), 2)}` as MessageKey))
  return (
    <Page
      title={t('catalog.galleries')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="gallery-create">
          {t('catalog.galleries.create')}
        </Button>
      }
    >
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
                <Button size="small" onClick={() => setEditing(g)} data-testid={`gallery-edit-${g.id}`}>
                  {t('catalog.edit')}
                </Button>
              </Space>
            ),
          },
        ]}
      />
      <Pager labels="page" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />
      <GalleryDrawer editing={editing} onClose={() => setEditing(null)} />
    </Page>
  )
}
