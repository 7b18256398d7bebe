// 内容 → 预售横幅: the remote configuration's preSaleConfig (type 1 cover,
// 2 float, 3 popup; status 1 before the sale, 2 after), edited one banner
// at a time (GET/POST /api/admin/presale: vid/source's key lists do not
// hold it). The phone app reads them from GET /api/app/vid/source. The
// picture is uploaded (上传图片: pictureId, published by the server at a
// public address) or typed as an address.
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Form, Input, InputNumber, Modal, Select, Tag } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, deletePreSale, getPreSales, savePreSale, type PreSale, type PreSaleInput } from './api'
import { MAX_SORT, checkImage, isImage } from './validate'
import { useProblemText, EditDelete } from './shared'
import { UploadPicture, type Uploaded } from './PictureUpload'
import { useSave } from '@/components/hooks'

export function PresalePage() {
  const t = useT()
  const problem = useProblemText()
  const q = useQuery({ queryKey: catalogKeys.presale, queryFn: getPreSales })
  const [editing, setEditing] = useState<PreSale | 'new' | null>(null)
  const [form] = Form.useForm<PreSaleInput>()
  const [picture, setPicture] = useState<Uploaded | null>(null)
  const [uploading, setUploading] = useState(false)
  const save = useSave((p: PreSaleInput) => savePreSale(p), 'catalog.saved', catalogKeys.presale, () => setEditing(null))
  const remove = useSave((id: number) => deletePreSale(id), 'catalog.deleted', catalogKeys.presale)
  const types = ([1, 2, 3] as const).map((v) => ({ value: v, label: t(`catalog.presale.type${v}` as MessageKey) }))
  const statuses = ([1, 2] as const).map((v) => ({ value: v, label: t(`catalog.presale.status${v}` as MessageKey) }))
  const open = (p: PreSale | 'new') => {
    setEditing(p)
    setPicture(null)
    form.resetFields()
    if (p !== 'new') form.setFieldsValue(p)
  }
  const full = (q.data?.list.length ?? 0) >= (q.data?.max ?? Infinity)
  return (
    <Page
      title={t('catalog.presale')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} disabled={full} onClick={() => open('new')} data-testid="presale-create">
          {t('catalog.presale.create')}
        </Button>
      }
    >
      <QueryTable<PreSale>
        query={q}
        empty={t('catalog.presale.empty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="presale-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('catalog.ads.image'), dataIndex: 'url', render: (src: string) => (isImage(src) ? <img className="catalog-ad-thumb" src={src} alt="" loading="lazy" /> : <span className="mono">{src}</span>) },
          { title: t('catalog.presale.type'), dataIndex: 'type', render: (v: number) => <Tag>{t(`catalog.presale.type${v}` as MessageKey)}</Tag> },
          { title: t('catalog.presale.status'), dataIndex: 'status', render: (v: number) => <Tag color={v === 1 ? 'blue' : 'green'}>{t(`catalog.presale.status${v}` as MessageKey)}</Tag> },
          { title: t('catalog.sort'), dataIndex: 'sort', responsive: ['md'] },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, p) => <EditDelete onEdit={() => open(p)} onDelete={() => remove.mutate(p.id)} deleting={remove.isPending && remove.variables === p.id} />,
          },
        ]}
      />
      <Modal
        open={editing !== null}
        title={editing === 'new' ? t('catalog.presale.create') : t('catalog.edit')}
        onCancel={() => setEditing(null)}
        onOk={() => form.submit()}
        okText={t('catalog.save')}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: save.isPending, disabled: uploading }}
        forceRender
      >
        <Form<PreSaleInput>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ type: 1, status: 1, sort: 0 }}
          onFinish={(v) =>
            save.mutate({ ...v, url: picture ? '' : (v.url ?? '').trim(), pictureId: picture?.id, id: editing && editing !== 'new' ? editing.id : undefined })
          }
        >
          <Form.Item name="type" label={t('catalog.presale.type')}>
            <Select options={types} />
          </Form.Item>
          <Form.Item name="status" label={t('catalog.presale.status')} extra={t('catalog.presale.statusHint')}>
            <Select options={statuses} />
          </Form.Item>
          <Form.Item
            name="url"
            label={t('catalog.ads.image')}
            extra={t('catalog.imageHint')}
            rules={[
              {
                validator: (_, v: string | undefined) => {
                  const p = picture ? null : problem(checkImage(v ?? ''))
                  return p ? Promise.reject(new Error(p)) : Promise.resolve()
                },
              },
            ]}
          >
            <Input placeholder="/media/presale/cover.jpg" disabled={picture !== null} data-testid="presale-url" />
          </Form.Item>
          <UploadPicture
            key={editing === null ? 'closed' : editing === 'new' ? 'new' : editing.id}
            testid="presale-upload"
            onBusy={setUploading}
            onDone={(u) => {
              setPicture(u)
              void form.validateFields(['url'])
            }}
          />
          {picture?.thumb ? <img className="catalog-preview" src={picture.thumb} alt="" /> : null}
          <Form.Item name="sort" label={t('catalog.sort')}>
            <InputNumber min={0} max={MAX_SORT} precision={0} className="full" />
          </Form.Item>
        </Form>
      </Modal>
    </Page>
  )
}
