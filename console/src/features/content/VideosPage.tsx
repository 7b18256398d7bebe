// 内容 → 视频: every video, drafts too, newest first; filter by module,
// state and title; paged by the server (no totals shown).
import { useMemo, useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Form, Input, Select, Tag, TreeSelect } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { contentKeys, getModules, getVideos, type AdminVideo, type VideoFilters } from './api'
import { accessLabel, duration } from './labels'

interface FormValues {
  module?: string // "m:<id>" or "s:<id>"
  published?: 0 | 1
  title?: string
}

export function VideosPage() {
  const t = useT()
  const [filters, setFilters] = useState<VideoFilters>({})
  const [page, setPage] = useState(1)
  const mods = useQuery({ queryKey: contentKeys.modules, queryFn: getModules })
  const q = useQuery({ queryKey: contentKeys.videos(filters, page), queryFn: () => getVideos(filters, page), placeholderData: keepPreviousData })

  const names = useMemo(() => {
    const m = new Map<number, string>()
    for (const top of mods.data ?? []) {
      m.set(top.id, top.name)
      for (const s of top.subModules ?? []) m.set(s.id, s.name)
    }
    return m
  }, [mods.data])
  const tree = (mods.data ?? []).map((m) => ({
    value: `m:${m.id}`,
    title: m.name,
    children: (m.subModules ?? []).map((s) => ({ value: `s:${s.id}`, title: s.name })),
  }))

  const apply = (v: FormValues) => {
    const f: VideoFilters = {}
    if (v.module?.startsWith('m:')) f.moduleId = Number(v.module.slice(2))
    if (v.module?.startsWith('s:')) f.subModuleId = Number(v.module.slice(2))
    if (v.published === 0 || v.published === 1) f.published = v.published
    if (v.title?.trim()) f.title = v.title.trim()
    setFilters(f)
    setPage(1)
  }

  return (
    <Page title={t('content.videos')}>
      <Form<FormValues> layout="inline" className="filters" onFinish={apply}>
        <Form.Item name="module" label={t('content.module')}>
          <TreeSelect treeData={tree} allowClear placeholder={t('content.allModules')} className="filter-select" treeDefaultExpandAll loading={mods.isPending} />
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
          />
        </Form.Item>
        <Form.Item name="title" label={t('content.titleSearch')}>
          <Input allowClear maxLength={80} data-testid="videos-title" />
        </Form.Item>
        <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
          {t('common.search')}
        </Button>
      </Form>
      <QueryTable<AdminVideo>
        query={q}
        empty={t('content.videosEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="videos-table"
        columns={[
          { title: 'ID', dataIndex: 'id' },
          { title: t('content.cover'), dataIndex: 'cover', render: (c: string) => (c ? <img className="cover-thumb" src={c} alt="" loading="lazy" /> : <span className="cover-thumb" />), responsive: ['sm'] },
          { title: t('content.title'), dataIndex: 'title' },
          { title: t('content.module'), key: 'module', render: (_, v) => [names.get(v.moduleId), names.get(v.subModuleId)].filter(Boolean).join(' / ') || '—', responsive: ['md'] },
          { title: t('content.state'), dataIndex: 'published', render: (p: boolean) => <Tag color={p ? 'green' : 'default'}>{p ? t('content.published') : t('content.draft')}</Tag> },
          { title: t('content.access'), dataIndex: 'access', render: (a: string, v) => { const k = accessLabel(a); return (k ? t(k) : a) + (v.coins > 0 ? ` · ${v.coins}` : '') } },
          { title: t('content.duration'), dataIndex: 'duration', render: duration, responsive: ['md'] },
          { title: t('content.plays'), dataIndex: 'playCount', responsive: ['lg'] },
          { title: t('content.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['lg'] },
        ]}
      />
      <Pager labels="page" page={page} hasPrev={page > 1} hasNext={!!q.data?.hasMore} busy={q.isFetching} onPrev={() => setPage((p) => Math.max(1, p - 1))} onNext={() => setPage((p) => p + 1)} />
    </Page>
  )
}
