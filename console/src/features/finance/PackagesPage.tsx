// 资金 → 金币套餐: every coin package (off-sale ones too) in the order the
// top-up page shows them; create and edit in a drawer; the on-sale switch
// saves the package with active flipped (POST /api/admin/currencys).
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Button, Drawer, Form, Input, InputNumber, Switch, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { financeKeys, getPackages, savePackage, type CoinPackage, type CoinPackageInput } from './api'
import { fromCents, toCents } from './money'
import { Money } from './shared'
import { useDrawerSize, useSave } from '@/components/hooks'

const MAX_COINS = 100_000_000
const MAX_YUAN = 1_000_000 // 100,000,000 cents

interface FormValues {
  name: string
  coins: number
  bonus: number
  price: number // yuan
  originalPrice: number | null
  label: string
  sort: number
  active: boolean
}

export const packageInput = (p: CoinPackage): CoinPackageInput => ({
  id: p.id, name: p.name, coins: p.coins, bonus: p.bonus, price: p.price, originalPrice: p.originalPrice, label: p.label, sort: p.sort, active: p.active,
})

export function PackagesPage() {
  const t = useT()
  const size = useDrawerSize()
  const q = useQuery({ queryKey: financeKeys.packages, queryFn: getPackages })
  const [editing, setEditing] = useState<CoinPackage | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const save = useSave(savePackage, 'finance.saved', financeKeys.packages, () => setEditing(null))
  const toggle = useSave(savePackage, 'finance.activeChanged', financeKeys.packages)
  const open = (p: CoinPackage | 'new') => {
    setEditing(p)
    form.resetFields()
    if (p !== 'new')
      form.setFieldsValue({ name: p.name, coins: p.coins, bonus: p.bonus, price: fromCents(p.price), originalPrice: p.originalPrice ? fromCents(p.originalPrice) : null, label: p.label, sort: p.sort, active: p.active })
  }
  const submit = (v: FormValues) =>
    save.mutate({
      id: editing && editing !== 'new' ? editing.id : undefined,
      name: v.name.trim(),
      coins: v.coins,
      bonus: v.bonus ?? 0,
      price: toCents(v.price) ?? 0,
      originalPrice: toCents(v.originalPrice) ?? 0,
      label: (v.label ?? '').trim(),
      sort: v.sort ?? 0,
      active: v.active,
    })
  return (
    <Page
      title={t('finance.nav.packages')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="package-create">
          {t('finance.packages.create')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('finance.packages.hint')}</Typography.Paragraph>
      <QueryTable<CoinPackage>
        query={q}
        empty={t('finance.packages.empty')}
        rowKey="id"
        dataSource={q.data}
        data-testid="packages-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          {
            title: t('finance.name'),
            key: 'name',
            // On a phone the name opens the editor (the actions column is hidden).
            render: (_, p) => (
              <Button type="link" className="finance-name-link" onClick={() => open(p)}>
                {p.name}
              </Button>
            ),
          },
          { title: t('finance.coins'), key: 'coins', render: (_, p) => (p.bonus ? `${p.coins} + ${p.bonus}` : p.coins) },
          { title: t('finance.priceCol'), dataIndex: 'price', render: (c: number) => <Money cents={c} /> },
          { title: t('finance.originalPrice'), dataIndex: 'originalPrice', render: (c: number) => (c ? <Money cents={c} /> : '—'), responsive: ['lg'] },
          { title: t('finance.label'), dataIndex: 'label', render: (l: string) => l || '—', responsive: ['md'] },
          { title: t('finance.sort'), dataIndex: 'sort', responsive: ['lg'] },
          {
            title: t('finance.active'),
            key: 'active',
            render: (_, p) => (
              <Switch
                size="small"
                checked={p.active}
                loading={toggle.isPending && toggle.variables?.id === p.id}
                onChange={(on) => toggle.mutate({ ...packageInput(p), active: on })}
                aria-label={t('finance.active')}
                data-testid={`package-active-${p.id}`}
              />
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            responsive: ['sm'],
            render: (_, p) => (
              <Button size="small" onClick={() => open(p)} data-testid={`package-edit-${p.id}`}>
                {t('finance.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('finance.packages.create') : t('finance.edit')}
        size={size}
        forceRender
        data-testid="package-drawer"
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="package-submit">
            {t('finance.save')}
          </Button>
        }
      >
        <Form<FormValues> form={form} layout="vertical" requiredMark={false} onFinish={submit} initialValues={{ bonus: 0, sort: 0, active: true, label: '' }}>
          <Form.Item name="name" label={t('finance.name')} rules={[{ required: true, whitespace: true, message: t('finance.needName') }, { max: 40 }]}>
            <Input maxLength={40} data-testid="package-name" />
          </Form.Item>
          <Form.Item name="coins" label={t('finance.coins')} rules={[{ required: true, message: t('finance.needPositive') }]}>
            <InputNumber min={1} max={MAX_COINS} precision={0} className="full" data-testid="package-coins" />
          </Form.Item>
          <Form.Item name="bonus" label={t('finance.bonus')}>
            <InputNumber min={0} max={MAX_COINS} precision={0} className="full" />
          </Form.Item>
          <Form.Item name="price" label={t('finance.price')} rules={[{ required: true, message: t('finance.needPositive') }]}>
            <InputNumber min={0.01} max={MAX_YUAN} precision={2} step={1} className="full" data-testid="package-price" />
          </Form.Item>
          <Form.Item name="originalPrice" label={t('finance.originalPrice')}>
            <InputNumber min={0} max={MAX_YUAN} precision={2} step={1} className="full" />
          </Form.Item>
          <Form.Item name="label" label={t('finance.label')} rules={[{ max: 10 }]}>
            <Input maxLength={10} />
          </Form.Item>
          <Form.Item name="sort" label={t('finance.sort')} extra={t('finance.sortHint')}>
            <InputNumber min={-1_000_000} max={1_000_000} precision={0} className="full" />
          </Form.Item>
          <Form.Item name="active" label={t('finance.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Drawer>
    </Page>
  )
}
