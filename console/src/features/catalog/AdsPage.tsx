// 内容 → 广告与横幅: every ad of a position (or all), newest first, with
// its clicks today, in the last 7 days and ever; create and edit in a
// drawer (position, picture, link, order, window), delete. The phone app
// shows "home_banner" ads with a picture in home's carousel, follows the
// link as lib/links.ts says and counts the tap (POST /api/app/ads/click).
// The picture is uploaded (上传图片: pictureId, which the server publishes
// at a public address) or typed as an address (http(s) or /media/...).
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { Button, Drawer, Form, Input, InputNumber, Select, Tag } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import dayjs from 'dayjs'
import { useT, type MessageKey } from '@/i18n'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { AD_POSITIONS, catalogKeys, deleteAd, getAds, saveAd, type Ad, type AdInput, type AdPosition } from './api'
import { MAX_SORT, checkImage, checkLink, isImage, toSeconds } from './validate'
import { WindowFields, type WindowValues } from './WindowFields'
import { WindowTag, WindowText, useProblemText, EditDelete } from './shared'
import { UploadPicture, type Uploaded } from './PictureUpload'
import { useDrawerSize, useKeyset, useSave } from '@/components/hooks'

interface FormValues extends WindowValues {
  title: string
  position: AdPosition
  image: string
  link: string
  sort: number
}

export function AdsPage() {
  const t = useT()
  const ks = useKeyset()
  const size = useDrawerSize()
  const problem = useProblemText()
  const [position, setPosition] = useState<AdPosition | undefined>(undefined)
  const q = useQuery({ queryKey: catalogKeys.ads(position, ks.cursor), queryFn: () => getAds(position, ks.cursor), placeholderData: keepPreviousData })
  const [editing, setEditing] = useState<Ad | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const image = Form.useWatch('image', form)
  const [picture, setPicture] = useState<Uploaded | null>(null)
  const [uploading, setUploading] = useState(false)
  const save = useSave((a: AdInput) => saveAd(a), 'catalog.saved', catalogKeys.all, () => setEditing(null))
  const remove = useSave((id: number) => deleteAd(id), 'catalog.deleted', catalogKeys.all)
  const positions = AD_POSITIONS.map((p) => ({ value: p, label: t(`catalog.ads.pos.${p}` as MessageKey) }))
  const open = (a: Ad | 'new') => {
    setEditing(a)
    setPicture(null)
    form.resetFields()
    if (a !== 'new')
      form.setFieldsValue({ title: a.title, position: a.position, image: a.image, link: a.link, sort: a.sort, startsAt: a.startsAt ? dayjs(a.startsAt * 1000) : null, endsAt: a.endsAt ? dayjs(a.endsAt * 1000) : null })
  }
  const submit = (v: FormValues) =>
    save.mutate({
      id: editing && editing !== 'new' ? editing.id : undefined,
      title: (v.title ?? '').trim(),
      position: v.position,
      image: picture ? '' : (v.image ?? '').trim(),
      pictureId: picture?.id,
      link: (v.link ?? '').trim(),
      sort: v.sort ?? 0,
      startsAt: toSeconds(v.startsAt?.valueOf()),
      endsAt: toSeconds(v.endsAt?.valueOf()),
    })
  const check = (fn: (v: string) => { key: string } | null) => ({
    validator: (_: unknown, v: string | undefined) => {
      const p = problem(fn(v ?? ''))
      return p ? Promise.reject(new Error(p)) : Promise.resolve()
    },
  })
  return (
    <Page
      title={t('catalog.ads')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="ad-create">
          {t('catalog.ads.create')}
        </Button>
      }
    >
      <div className="filters">
        <Select<AdPosition>
          allowClear
          placeholder={t('catalog.ads.allPositions')}
          className="filter-select"
          options={positions}
          value={position}
          onChange={(p) => {
            setPosition(p)
            ks.reset()
          }}
          data-testid="ads-position"
        />
      </div>
      <QueryTable<Ad>
        query={q}
        empty={t('catalog.ads.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="ads-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('catalog.ads.image'), dataIndex: 'image', render: (src: string) => (isImage(src) ? <img className="catalog-ad-thumb" src={src} alt="" loading="lazy" /> : <span className="catalog-ad-thumb" />), responsive: ['sm'] },
          { title: t('catalog.title'), dataIndex: 'title', render: (s: string) => s || '—' },
          { title: t('catalog.ads.position'), dataIndex: 'position', render: (p: AdPosition) => <Tag>{t(`catalog.ads.pos.${p}` as MessageKey)}</Tag>, responsive: ['md'] },
          { title: t('catalog.state'), dataIndex: 'state', render: (s: Ad['state']) => <WindowTag state={s} /> },
          { title: t('catalog.ads.today'), key: 'today', render: (_, a) => <span data-testid={`ad-clicks-${a.id}`}>{a.clicks.today}</span> },
          { title: t('catalog.ads.days7'), key: 'days7', render: (_, a) => a.clicks.days7, responsive: ['sm'] },
          { title: t('catalog.ads.total'), key: 'total', render: (_, a) => a.clicks.total, responsive: ['sm'] },
          { title: t('catalog.window'), key: 'window', render: (_, a) => <WindowText startsAt={a.startsAt} endsAt={a.endsAt} />, responsive: ['lg'] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, a) => <EditDelete onEdit={() => open(a)} onDelete={() => remove.mutate(a.id)} deleting={remove.isPending && remove.variables === a.id} editTestId={`ad-edit-${a.id}`} />,
          },
        ]}
      />
      <Pager labels="page" page={ks.page} hasPrev={ks.page > 1} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={ks.prev} onNext={() => ks.next(q.data?.nextCursor)} />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('catalog.ads.create') : t('catalog.edit')}
        size={size}
        forceRender
        data-testid="ad-drawer"
        extra={
          <Button type="primary" loading={save.isPending} disabled={uploading} onClick={() => form.submit()} data-testid="ad-submit">
            {t('catalog.save')}
          </Button>
        }
      >
        <Form<FormValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ sort: 0, position: 'home_banner' }}>
          <Form.Item name="position" label={t('catalog.ads.position')} extra={t('catalog.ads.positionHint')} rules={[{ required: true }]}>
            <Select options={positions} data-testid="ad-position" />
          </Form.Item>
          <Form.Item name="title" label={t('catalog.title')} rules={[{ max: 100, message: t('catalog.titleLong') }]}>
            <Input maxLength={100} data-testid="ad-title" />
          </Form.Item>
          <Form.Item name="image" label={t('catalog.ads.image')} extra={t('catalog.imageHint')} rules={[check((v) => (picture ? null : checkImage(v)))]}>
            <Input placeholder="https://cdn.example.com/banner.jpg" disabled={picture !== null} data-testid="ad-image" />
          </Form.Item>
          <UploadPicture
            key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
            testid="ad-upload"
            onBusy={setUploading}
            onDone={(u) => {
              setPicture(u)
              void form.validateFields(['image'])
            }}
          />
          {picture?.thumb ? (
            <img className="catalog-preview" src={picture.thumb} alt="" data-testid="ad-preview" />
          ) : image && isImage(image.trim()) ? (
            <img className="catalog-preview" src={image.trim()} alt="" />
          ) : null}
          <Form.Item name="link" label={t('catalog.link')} extra={t('catalog.linkHint')} rules={[check(checkLink)]}>
            <Input placeholder="/mine/vipcenter" data-testid="ad-link" />
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
