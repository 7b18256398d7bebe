// 新建图集 and a gallery's editor: title, category (a sub-module of an
// images module), access, and its pictures — uploaded several at once with
// progress, removed, reordered (the first is the cover). A new gallery is
// POST /api/admin/galleries with the picture ids; an edit is
// galleries/update for the fields and galleries/images for the pictures
// (each records nothing when nothing changed).
import { useEffect, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Alert, Button, Drawer, Form, Input, InputNumber, Select, Spin, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { catalogKeys, createGallery, getGallery, getImageModules, setGalleryImages, updateGallery, type Gallery } from './api'
import { pictureIds, pictureProblem, type PictureItem } from './pictures'
import { GalleryPictures, usePictureProblem } from './PictureUpload'
import { useDrawerSize, useSave } from '@/components/hooks'

interface Values {
  title: string
  subModuleID?: number
  vipLevel: number
  coins: number
}

export function GalleryDrawer({ editing, onClose }: { editing: Gallery | 'new' | null; onClose: () => void }) {
  const t = useT()
  const size = useDrawerSize()
  const problemText = usePictureProblem()
  const [form] = Form.useForm<Values>()
  const [pictures, setPictures] = useState<PictureItem[]>([])
  const [original, setOriginal] = useState<number[]>([])
  const [tried, setTried] = useState(false)
  const id = editing && editing !== 'new' ? editing.id : 0
  const mods = useQuery({ queryKey: catalogKeys.imageModules, queryFn: getImageModules, enabled: editing !== null })
  const detail = useQuery({ queryKey: catalogKeys.gallery(id), queryFn: () => getGallery(id), enabled: id > 0 })
  useEffect(() => {
    if (editing === null) return
    setTried(false)
    form.resetFields()
    if (editing === 'new') {
      setPictures([])
      setOriginal([])
    } else form.setFieldsValue({ title: editing.title, subModuleID: editing.subModuleID, vipLevel: editing.vipLevel, coins: editing.coins })
  }, [editing, form])
  useEffect(() => {
    if (!detail.data || detail.data.id !== id) return
    const imgs = detail.data.images
    setPictures(imgs.map((im) => ({ key: `a${im.assetId}`, name: `#${im.assetId} · ${im.width}×${im.height}`, assetId: im.assetId, thumb: im.thumb, pct: 100, state: 'done' })))
    setOriginal(imgs.map((im) => im.assetId))
  }, [detail.data, id, editing])
  const save = useSave(
    async (v: Values) => {
      const images = pictureIds(pictures) ?? []
      const fields = { title: v.title.trim(), vipLevel: v.vipLevel, coins: v.coins ?? 0 }
      if (!id) return createGallery({ ...fields, subModuleID: v.subModuleID ?? 0, images })
      let g = await updateGallery(id, { ...fields, subModuleID: v.subModuleID })
      if (images.join(',') !== original.join(',')) g = await setGalleryImages(id, images)
      return g
    },
    editing === 'new' ? 'catalog.galleries.created' : 'catalog.saved',
    catalogKeys.all,
    onClose,
  )
  const problem = pictureProblem(pictures)
  const busy = pictures.some((p) => p.state === 'uploading')
  const subs = (mods.data ?? []).map((m) => ({ label: m.name, options: (m.subModules ?? []).map((s) => ({ value: s.id, label: `${m.name} / ${s.name}` })) }))
  const submit = () => {
    setTried(true)
    form.submit()
  }
  return (
    <Drawer
      open={editing !== null}
      onClose={onClose}
      title={editing === 'new' ? t('catalog.galleries.create') : t('catalog.edit')}
      size={size}
      forceRender
      data-testid="gallery-drawer"
      extra={
        <Button type="primary" loading={save.isPending} disabled={busy || (id > 0 && detail.isPending)} onClick={submit} data-testid="gallery-submit">
          {t('catalog.save')}
        </Button>
      }
    >
      <Form<Values> form={form} layout="vertical" requiredMark={false} initialValues={{ vipLevel: 0, coins: 0 }} onFinish={(v) => (problem ? undefined : save.mutate(v))}>
        <Form.Item name="title" label={t('catalog.title')} rules={[{ required: true, whitespace: true, message: t('catalog.needTitle') }, { max: 100, message: t('catalog.titleLong') }]}>
          <Input maxLength={100} data-testid="gallery-title" />
        </Form.Item>
        <Form.Item name="subModuleID" label={t('catalog.galleries.sub')} rules={[{ required: true, message: t('catalog.galleries.needSub') }]}>
          <Select options={subs} loading={mods.isPending} showSearch optionFilterProp="label" data-testid="gallery-sub" />
        </Form.Item>
        {mods.data && subs.every((g) => g.options.length === 0) && <Alert type="warning" showIcon title={t('catalog.galleries.noImageModule')} className="catalog-gap" />}
        <Form.Item name="vipLevel" label={t('catalog.galleries.access')}>
          <Select options={[0, 1, 2].map((v) => ({ value: v, label: t(`catalog.galleries.vip${v}` as MessageKey) }))} data-testid="gallery-access" />
        </Form.Item>
        <Form.Item name="coins" label={t('catalog.galleries.price')} extra={t('catalog.galleries.priceHint')}>
          <InputNumber min={0} max={100000} precision={0} className="full" />
        </Form.Item>
        <Form.Item label={t('catalog.pictures.label')} help={tried && problem ? <Typography.Text type="danger">{problemText(problem)}</Typography.Text> : undefined}>
          {id > 0 && detail.isPending ? <Spin /> : <GalleryPictures value={pictures} onChange={setPictures} />}
        </Form.Item>
      </Form>
    </Drawer>
  )
}
