// 内容 → 视频: every video, drafts too, newest first; filters by module,
// state, access and price and title; keyset pages (newer/older); row
// selection with bulk publish, unpublish, move and tag; the editor drawer
// (VideoDrawer) for a new video or one clicked. ShortsPage shows the same
// list fixed to short-video modules (type 4).
import { useMemo, useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Form, Input, InputNumber, Popconfirm, Select, Space, Tag, TreeSelect, Typography } from 'antd'
import { PlusOutlined, SearchOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { bulkVideos, contentKeys, getModules, getTags, getVideos, type Access, type AdminModule, type AdminVideo, type BulkAction, type VideoFilters } from './api'
import { accessLabel, duration } from './labels'
import { priceRange } from './order'
import { VideoDrawer } from './VideoDrawer'

interface FormValues {
  module?: string // "m:<id>" or "s:<id>"
  published?: 0 | 1
  access?: Access
  coinsMin?: number | null
  coinsMax?: number | null
  title?: string
}

// moduleTree is the module picker's tree: top-level modules (of type, when
// given) and their sub-modules; subOnly makes only sub-modules pickable.
export function moduleTree(mods: AdminModule[], type?: number, subOnly = false) {
  return mods
    .filter((m) => type === undefined || m.moduleType === type)
    .map((m) => ({
      value: `m:${m.id}`,
      title: m.name,
      selectable: !subOnly,
      children: (m.subModules ?? []).map((s) => ({ value: `s:${s.id}`, title: s.name })),
    }))
}

export function VideosPage() {
  const t = useT()
  return <VideoList title={t('content.videos')} />
}

export function VideoList({ title, moduleType }: { title: string; moduleType?: number }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [filters, setFilters] = useState<VideoFilters>(moduleType === undefined ? {} : { moduleType })
  const [pager, setPager] = useState<PagerState>(firstPage)
  const [selected, setSelected] = useState<number[]>([])
  const [editing, setEditing] = useState<number | 'new' | null>(null)
  const [moveTo, setMoveTo] = useState<string | undefined>()
  const [bulkTags, setBulkTags] = useState<number[]>([])
  const cursor = cursorOf(pager)
  const mods = useQuery({ queryKey: contentKeys.modules, queryFn: getModules })
  const tags = useQuery({ queryKey: contentKeys.tags, queryFn: getTags })
  const q = useQuery({ queryKey: contentKeys.videoList(filters, cursor), queryFn: () => getVideos(filters, cursor), placeholderData: keepPreviousData })
  const bulk = useMutation({
    mutationFn: bulkVideos,
    onSuccess: (r) => {
      void message.success(t('content.bulkDone', { n: r.changed }))
      setSelected([])
      void qc.invalidateQueries({ queryKey: contentKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })

  const names = useMemo(() => {
    const m = new Map<number, string>()
    for (const top of mods.data ?? []) {
      m.set(top.id, top.name)
      for (const s of top.subModules ?? []) m.set(s.id, s.name)
    }
    return m
  }, [mods.data])
  const tree = moduleTree(mods.data ?? [], moduleType)

  const apply = (v: FormValues) => {
    const f: VideoFilters = moduleType === undefined ? {} : { moduleType }
    if (v.module?.startsWith('m:')) f.moduleID = Number(v.module.slice(2))
    if (v.module?.startsWith('s:')) f.subModuleID = Number(v.module.slice(2))
    if (v.published === 0 || v.published === 1) f.published = v.published
    if (v.access) f.access = v.access
    Object.assign(f, priceRange(v.coinsMin, v.coinsMax))
    if (v.title?.trim()) f.title = v.title.trim()
    for (const k of Object.keys(f) as (keyof VideoFilters)[]) if (f[k] === undefined) delete f[k]
    setFilters(f)
    setPager(firstPage)
    setSelected([])
  }
  const run = (action: BulkAction, extra: { subModuleID?: number; tagIds?: number[] } = {}) => bulk.mutate({ ids: selected, action, ...extra })
  const busy = bulk.isPending

  return (
    <Page
      title={title}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="video-new">
          {t('content.newVideo')}
        </Button>
      }
    >
      <Form<FormValues> layout="inline" className="filters" onFinish={apply} data-testid="videos-filters">
        <Form.Item name="module" label={t('content.module')}>
          <TreeSelect showSearch treeNodeFilterProp="title" treeData={tree} allowClear placeholder={t('content.allModules')} className="filter-select" treeDefaultExpandAll loading={mods.isPending} data-testid="filter-module" />
        </Form.Item>
        <Form.Item name="published" label={t('content.state')}>
          <Select
            allowClear
            placeholder={t('content.allStates')}
            className="filter-select"
            options={[
              { value: 1, label: t('content.published') },
              { value: 0, label: t('content.draft') },
            ]}
            data-testid="filter-state"
          />
        </Form.Item>
        <Form.Item name="access" label={t('content.access')}>
          <Select allowClear placeholder={t('content.anyAccess')} className="filter-select" options={(['free', 'vip', 'svip', 'gold'] as const).map((a) => ({ value: a, label: t(accessLabel(a) ?? 'content.access.free') }))} data-testid="filter-access" />
        </Form.Item>
        <Form.Item label={t('content.coins')}>
          <Space.Compact>
            <Form.Item name="coinsMin" noStyle>
              <InputNumber min={0} max={1000000} precision={0} placeholder={t('content.min')} className="filter-price" data-testid="filter-coins-min" />
            </Form.Item>
            <Form.Item name="coinsMax" noStyle>
              <InputNumber min={0} max={1000000} precision={0} placeholder={t('content.max')} className="filter-price" data-testid="filter-coins-max" />
            </Form.Item>
          </Space.Compact>
        </Form.Item>
        <Form.Item name="title" label={t('content.titleSearch')}>
          <Input allowClear maxLength={80} data-testid="videos-title" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="videos-search">
          {t('common.search')}
        </Button>
      </Form>
      {selected.length > 0 && (
        <div className="bulk-bar" data-testid="bulk-bar">
          <Typography.Text strong>{t('content.selectedN', { n: selected.length })}</Typography.Text>
          <Button size="small" disabled={busy} onClick={() => run('publish')} data-testid="bulk-publish">
            {t('content.publish')}
          </Button>
          <Popconfirm title={t('content.bulkUnpublishConfirm', { n: selected.length })} onConfirm={() => run('unpublish')}>
            <Button size="small" disabled={busy} data-testid="bulk-unpublish">
              {t('content.unpublish')}
            </Button>
          </Popconfirm>
          <Space.Compact>
            <TreeSelect showSearch treeNodeFilterProp="title" size="small" treeData={moduleTree(mods.data ?? [], moduleType, true)} value={moveTo} onChange={setMoveTo} placeholder={t('content.moveTo')} className="bulk-select" treeDefaultExpandAll data-testid="bulk-move-to" />
            <Button size="small" disabled={busy || !moveTo?.startsWith('s:')} onClick={() => run('move', { subModuleID: Number(moveTo?.slice(2)) })} data-testid="bulk-move">
              {t('content.move')}
            </Button>
          </Space.Compact>
          <Space.Compact>
            <Select size="small" mode="multiple" maxTagCount={2} value={bulkTags} onChange={setBulkTags} placeholder={t('content.tags')} className="bulk-select" options={(tags.data ?? []).map((x) => ({ value: x.id, label: x.name }))} data-testid="bulk-tags" />
            <Button size="small" disabled={busy || bulkTags.length === 0} onClick={() => run('tag', { tagIds: bulkTags })} data-testid="bulk-tag">
              {t('content.addTags')}
            </Button>
            <Button size="small" disabled={busy || bulkTags.length === 0} onClick={() => run('untag', { tagIds: bulkTags })} data-testid="bulk-untag">
              {t('content.removeTags')}
            </Button>
          </Space.Compact>
          <Button size="small" type="link" onClick={() => setSelected([])}>
            {t('content.clearSelection')}
          </Button>
        </div>
      )}
      <QueryTable<AdminVideo>
        query={q}
        empty={t('content.videosEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)), preserveSelectedRowKeys: false }}
        data-testid="videos-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('content.cover'), dataIndex: 'cover', render: (c: string) => (c ? <img className="cover-thumb" src={c} alt="" loading="lazy" /> : <span className="cover-thumb" />), responsive: ['md'] },
          {
            title: t('content.title'),
            dataIndex: 'title',
            render: (title: string, v) => (
              <Button type="link" className="link-cell" onClick={() => setEditing(v.id)} data-testid={`video-open-${v.id}`}>
                {title}
              </Button>
            ),
          },
          { title: t('content.module'), key: 'module', render: (_, v) => [names.get(v.moduleID), names.get(v.subModuleID)].filter(Boolean).join(' / ') || '—', responsive: ['md'] },
          { title: t('content.state'), dataIndex: 'published', render: (p: boolean) => <Tag color={p ? 'green' : 'default'}>{p ? t('content.published') : t('content.draft')}</Tag> },
          {
            title: t('content.access'),
            dataIndex: 'access',
            render: (a: string, v) => {
              const k = accessLabel(a)
              return (k ? t(k) : a) + (v.coins > 0 ? ` · ${v.coins}` : '')
            },
          },
          { title: t('content.tags'), key: 'tags', render: (_, v) => v.tags.map((x) => <Tag key={x.id}>{x.name}</Tag>), responsive: ['lg'] },
          { title: t('content.duration'), dataIndex: 'duration', render: duration, responsive: ['lg'] },
          { title: t('content.plays'), dataIndex: 'playCount', responsive: ['xl'] },
          { title: t('content.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['xl'] },
        ]}
      />
      <Pager
        labels="page"
        page={pager.index + 1}
        hasPrev={pager.index > 0}
        hasNext={!!q.data?.nextCursor}
        busy={q.isFetching}
        onPrev={() => {
          setPager(newer)
          setSelected([])
        }}
        onNext={() => {
          setPager((p) => older(p, q.data?.nextCursor ?? null))
          setSelected([])
        }}
      />
      <VideoDrawer id={editing} moduleType={moduleType} onClose={() => setEditing(null)} onCreated={(id) => setEditing(id)} />
    </Page>
  )
}
