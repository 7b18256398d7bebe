// 资金 → VIP 卡: every VIP card (off-sale ones too); create and edit in a
// drawer; the on-sale switch saves the card with active flipped (POST
// /api/admin/vip/products replaces every field). Cards are never deleted.
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Drawer, Form, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { financeKeys, getVipCards, saveVipCard, type VipCard, type VipCardInput } from './api'
import { fromCents, toCents } from './money'
import { Money } from './shared'
import { useDrawerSize, useSave } from '@/components/hooks'

const MAX_MONEY = 100_000_000

interface FormValues {
  level: 1 | 2
  name: string
  days: number
  price: number | null // yuan
  originalPrice: number | null
  coins: number | null
  label: string
  newUser: boolean
  coupons: number
  sort: number
  active: boolean
}

export const cardInput = (c: VipCard): VipCardInput => ({
  id: c.id, level: c.level, name: c.name, days: c.days, price: c.price, originalPrice: c.originalPrice, coins: c.coins, label: c.label,
  newUser: c.newUser, coupons: c.coupons, sort: c.sort, active: c.active,
})

export function VipPage() {
  const t = useT()
  const size = useDrawerSize()
  const q = useQuery({ queryKey: financeKeys.vip, queryFn: getVipCards })
  const [editing, setEditing] = useState<VipCard | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const save = useSave(saveVipCard, 'finance.saved', financeKeys.vip, () => setEditing(null))
  const toggle = useSave(saveVipCard, 'finance.activeChanged', financeKeys.vip)
  const levelName = (l: number) => (l === 2 ? t('finance.vip.level2') : t('finance.vip.level1'))
  const open = (c: VipCard | 'new') => {
    setEditing(c)
    form.resetFields()
    if (c !== 'new')
      form.setFieldsValue({
        level: c.level === 2 ? 2 : 1, name: c.name, days: c.days, price: c.price ? fromCents(c.price) : null, originalPrice: c.originalPrice ? fromCents(c.originalPrice) : null,
        coins: c.coins || null, label: c.label, newUser: c.newUser, coupons: c.coupons, sort: c.sort, active: c.active,
      })
  }
  const submit = (v: FormValues) =>
    save.mutate({
      id: editing && editing !== 'new' ? editing.id : undefined,
      level: v.level,
      name: v.name.trim(),
      days: v.days,
      price: toCents(v.price) ?? 0,
      originalPrice: toCents(v.originalPrice) ?? 0,
      coins: v.coins ?? 0,
      label: (v.label ?? '').trim(),
      newUser: v.newUser,
      coupons: v.coupons ?? 0,
      sort: v.sort ?? 0,
      active: v.active,
    })
  return (
    <Page
      title={t('finance.nav.vip')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="vip-create">
          {t('finance.vip.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('finance.vip.hint')}</Typography.Paragraph>
      <QueryTable<VipCard>
        query={q}
        empty={t('finance.vip.empty')}
        rowKey="id"
        dataSource={q.data}
        data-testid="vip-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          {
            title: t('finance.name'),
            key: 'name',
            render: (_, c) => (
              <Space direction="vertical" size={2}>
                <Button type="link" className="finance-name-link" onClick={() => open(c)}>
                  {c.name}
                </Button>
                <span>
                  <Tag color={c.level === 2 ? 'gold' : 'blue'}>{levelName(c.level)}</Tag>
                  {c.newUser ? <Tag color="magenta">{t('finance.vip.newUser')}</Tag> : null}
                </span>
              </Space>
            ),
          },
          { title: t('finance.vip.days'), dataIndex: 'days', responsive: ['sm'] },
          { title: t('finance.priceCol'), dataIndex: 'price', render: (p: number) => (p ? <Money cents={p} /> : '—') },
          { title: t('finance.vip.coinsPrice'), dataIndex: 'coins', render: (c: number) => c || '—', responsive: ['md'] },
          { title: t('finance.vip.coupons'), dataIndex: 'coupons', responsive: ['lg'] },
          { title: t('finance.sort'), dataIndex: 'sort', responsive: ['lg'] },
          {
            title: t('finance.active'),
            key: 'active',
            render: (_, c) => (
              <Switch
                size="small"
                checked={c.active}
                loading={toggle.isPending && toggle.variables?.id === c.id}
                onChange={(on) => toggle.mutate({ ...cardInput(c), active: on })}
                aria-label={t('finance.active')}
                data-testid={`vip-active-${c.id}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            responsive: ['sm'],
            render: (_, c) => (
              <Button size="small" onClick={() => open(c)} data-testid={`vip-edit-${c.id}`}>
                {t('finance.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('finance.vip.create') : t('finance.edit')}
        size={size}
        forceRender
        data-testid="vip-drawer"
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="vip-submit">
            {t('finance.save')}
          </Button>
        }
      >
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          initialValues={{ level: 1, days: 30, coupons: 0, sort: 0, active: true, newUser: false, label: '' }}
        >
          <Form.Item name="level" label={t('finance.vip.level')}>
            <Select options={[1, 2].map((l) => ({ value: l, label: levelName(l) }))} />
          </Form.Item>
          <Form.Item name="name" label={t('finance.name')} rules={[{ required: true, whitespace: true, message: t('finance.needName') }, { max: 40 }]}>
            <Input maxLength={40} data-testid="vip-name" />
          </Form.Item>
          <Form.Item name="days" label={t('finance.vip.days')} rules={[{ required: true, message: t('finance.needPositive') }]}>
            <InputNumber min={1} max={3660} precision={0} className="full" />
          </Form.Item>
          <Form.Item
            name="price"
            label={t('finance.price')}
            dependencies={['coins']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_, v: number | null) => ((v ?? 0) > 0 || (getFieldValue('coins') ?? 0) > 0 ? Promise.resolve() : Promise.reject(new Error(t('finance.needPriceOrCoins')))),
              }),
            ]}
          >
            <InputNumber min={0} max={MAX_MONEY / 100} precision={2} className="full" data-testid="vip-price" />
          </Form.Item>
          <Form.Item name="originalPrice" label={t('finance.originalPrice')}>
            <InputNumber min={0} max={MAX_MONEY / 100} precision={2} className="full" />
          </Form.Item>
          <Form.Item name="coins" label={t('finance.vip.coinsPrice')}>
            <InputNumber min={0} max={MAX_MONEY} precision={0} className="full" />
          </Form.Item>
          <Form.Item name="coupons" label={t('finance.vip.coupons')}>
            <InputNumber min={0} max={100} precision={0} className="full" />
          </Form.Item>
          <Form.Item name="label" label={t('finance.label')} rules={[{ max: 20 }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="sort" label={t('finance.sort')} extra={t('finance.sortHint')}>
            <InputNumber min={-1_000_000} max={1_000_000} precision={0} className="full" />
          </Form.Item>
          <Form.Item name="newUser" label={t('finance.vip.newUser')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="active" label={t('finance.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Drawer>
    </Page>
  )
}
