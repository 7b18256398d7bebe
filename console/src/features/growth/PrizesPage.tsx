// 增长 → 积分奖品: every points prize with its price in points, what it
// grants, its stock (unlimited or how many are left) and the per-user
// limit; create and edit in a drawer. An edit carries the stock it showed,
// so when users exchanged meanwhile the server refuses (409) instead of
// writing the old number back; the list reloads and the operator edits
// again. The phone's prize shop is GET /api/app/active/point/prize.
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Drawer, Form, Input, InputNumber, Select, Space, Switch, Tag, Typography } from 'antd'
import { PlusOutlined } from '@ant-design/icons'
import { useT, type T } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { getPrizes, growthKeys, savePrize, type Prize, type PrizeReward } from './api'
import { MAX_POINTS, MAX_REWARD_COINS, MAX_REWARD_COUPONS, MAX_REWARD_VIP_DAYS } from './logic'
import { useDrawerSize } from '@/components/hooks'

interface FormValues {
  title: string
  image: string
  cost: number
  coins: number
  vipLevel: number
  vipDays: number
  coupons: number
  unlimited: boolean
  stock: number | null
  perUserLimit: number
  sort: number
  active: boolean
}

export function prizeRewardText(t: T, r: PrizeReward): string {
  const parts = []
  if (r.coins) parts.push(t('growth.nCoins', { n: r.coins }))
  if (r.vipDays) parts.push(t(r.vipLevel === 2 ? 'growth.nSvipDays' : 'growth.nVipDays', { n: r.vipDays }))
  if (r.coupons) parts.push(t('growth.nCoupons', { n: r.coupons }))
  return parts.join(' + ') || '—'
}

export function PrizesPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const size = useDrawerSize()
  const q = useQuery({ queryKey: growthKeys.prizes, queryFn: getPrizes })
  const [editing, setEditing] = useState<Prize | 'new' | null>(null)
  const [form] = Form.useForm<FormValues>()
  const unlimited = Form.useWatch('unlimited', form)
  const save = useMutation({
    mutationFn: ({ p, before }: { p: Prize; before?: number | null }) => savePrize(p, before),
    onSuccess: () => {
      void message.success(t('growth.saved'))
      setEditing(null)
    },
    onError: (e) => void message.error(errorTip(e, t)),
    // Either way the list shows the stock as it is now.
    onSettled: () => void qc.invalidateQueries({ queryKey: growthKeys.prizes }),
  })
  const open = (p: Prize | 'new') => {
    setEditing(p)
    form.resetFields()
    if (p !== 'new')
      form.setFieldsValue({
        title: p.title,
        image: p.image ?? '',
        cost: p.cost,
        coins: p.reward.coins ?? 0,
        vipLevel: p.reward.vipLevel || 1,
        vipDays: p.reward.vipDays ?? 0,
        coupons: p.reward.coupons ?? 0,
        unlimited: p.stock === null,
        stock: p.stock,
        perUserLimit: p.perUserLimit,
        sort: p.sort,
        active: p.active,
      })
  }
  const submit = (v: FormValues) => {
    const p: Prize = {
      id: editing && editing !== 'new' ? editing.id : 0,
      title: v.title.trim(),
      image: (v.image ?? '').trim(),
      cost: v.cost,
      reward: { coins: v.coins ?? 0, vipLevel: v.vipDays ? v.vipLevel : 0, vipDays: v.vipDays ?? 0, coupons: v.coupons ?? 0 },
      stock: v.unlimited ? null : (v.stock ?? 0),
      perUserLimit: v.perUserLimit ?? 0,
      sort: v.sort ?? 0,
      active: v.active,
    }
    save.mutate({ p, before: editing && editing !== 'new' ? editing.stock : undefined })
  }
  const rewardRule = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: () => {
      const n = (k: string) => (getFieldValue(k) as number | null) ?? 0
      return n('coins') + n('vipDays') + n('coupons') > 0 ? Promise.resolve() : Promise.reject(new Error(t('growth.rewardEmpty')))
    },
  })
  return (
    <Page
      title={t('growth.prizes')}
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => open('new')} data-testid="prize-create">
          {t('growth.prizes.create')}
        </Button>
      }
    >
      <QueryTable<Prize>
        query={q}
        empty={t('growth.prizes.empty')}
        rowKey="id"
        dataSource={q.data}
        data-testid="prizes-table"
        columns={[
          { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
          { title: t('growth.title'), dataIndex: 'title' },
          { title: t('growth.cost'), dataIndex: 'cost', render: (c: number) => t('growth.nPoints', { n: c }) },
          { title: t('growth.reward'), key: 'reward', render: (_, p) => prizeRewardText(t, p.reward), responsive: ['md'] },
          {
            title: t('growth.stock'),
            dataIndex: 'stock',
            render: (s: number | null) => (s === null ? <Tag>{t('growth.unlimited')}</Tag> : s === 0 ? <Tag color="red">{t('growth.soldOut')}</Tag> : s),
          },
          { title: t('growth.perUser'), dataIndex: 'perUserLimit', render: (n: number) => n || t('growth.unlimited'), responsive: ['lg'] },
          { title: t('growth.active'), dataIndex: 'active', render: (a: boolean) => (a ? <Tag color="green">{t('growth.on')}</Tag> : <Tag>{t('growth.off')}</Tag>) },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, p) => (
              <Button size="small" onClick={() => open(p)} data-testid={`prize-edit-${p.id}`}>
                {t('growth.edit')}
              </Button>
            ),
          },
        ]}
      />
      <Drawer
        open={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('growth.prizes.create') : t('growth.edit')}
        size={size}
        forceRender
        extra={
          <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="prize-submit">
            {t('growth.save')}
          </Button>
        }
      >
        <Form<FormValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          initialValues={{ cost: 100, coins: 10, vipLevel: 1, vipDays: 0, coupons: 0, unlimited: true, stock: 100, perUserLimit: 0, sort: 0, active: true, image: '' }}
        >
          <Form.Item name="title" label={t('growth.title')} rules={[{ required: true, whitespace: true, message: t('growth.needTitle') }, { max: 40, message: t('growth.tooLong', { n: 40 }) }]}>
            <Input maxLength={40} data-testid="prize-title" />
          </Form.Item>
          <Form.Item name="cost" label={t('growth.cost')} rules={[{ required: true, message: t('growth.range', { min: 1, max: MAX_POINTS }) }]}>
            <InputNumber min={1} max={MAX_POINTS} precision={0} className="full" data-testid="prize-cost" />
          </Form.Item>
          <Typography.Text type="secondary">{t('growth.rewardHint')}</Typography.Text>
          <Space wrap className="full">
            <Form.Item name="coins" label={t('growth.coins')} dependencies={['vipDays', 'coupons']} rules={[rewardRule]}>
              <InputNumber min={0} max={MAX_REWARD_COINS} precision={0} />
            </Form.Item>
            <Form.Item name="vipDays" label={t('growth.vipDays')}>
              <InputNumber min={0} max={MAX_REWARD_VIP_DAYS} precision={0} />
            </Form.Item>
            <Form.Item name="vipLevel" label={t('growth.vipLevel')}>
              <Select className="filter-select" options={[{ value: 1, label: 'VIP' }, { value: 2, label: 'SVIP' }]} />
            </Form.Item>
            <Form.Item name="coupons" label={t('growth.coupons')}>
              <InputNumber min={0} max={MAX_REWARD_COUPONS} precision={0} />
            </Form.Item>
          </Space>
          <Space wrap className="full">
            <Form.Item name="unlimited" label={t('growth.unlimitedStock')} valuePropName="checked">
              <Switch data-testid="prize-unlimited" />
            </Form.Item>
            <Form.Item name="stock" label={t('growth.stock')} rules={[{ required: !unlimited, message: t('growth.range', { min: 0, max: 1000000000 }) }]} hidden={unlimited}>
              <InputNumber min={0} max={1000000000} precision={0} data-testid="prize-stock" />
            </Form.Item>
            <Form.Item name="perUserLimit" label={t('growth.perUser')} extra={t('growth.zeroUnlimited')}>
              <InputNumber min={0} max={1000} precision={0} />
            </Form.Item>
          </Space>
          {editing && editing !== 'new' ? <Typography.Paragraph type="secondary">{t('growth.stockHint')}</Typography.Paragraph> : null}
          <Form.Item name="image" label={t('growth.image')} extra={t('growth.imageHint')} rules={[{ validator: (_, v: string | undefined) => (!v || v.startsWith('/media/') || v.startsWith('https://') ? Promise.resolve() : Promise.reject(new Error(t('growth.imageHint')))) }]}>
            <Input placeholder="https://" />
          </Form.Item>
          <Space wrap className="full">
            <Form.Item name="sort" label={t('growth.sort')}>
              <InputNumber min={0} max={100000} precision={0} />
            </Form.Item>
            <Form.Item name="active" label={t('growth.active')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Space>
        </Form>
      </Drawer>
    </Page>
  )
}
