// 资金 → 订单: every user's top-up and VIP orders, filtered by state,
// user, order number, provider and Asia/Shanghai days, newest first and
// paged by cursor. A row opens a drawer with the order and its provider
// callbacks; there a missed payment is marked paid, or a paid order
// refunded, each with a reason (step-up: the client asks for a code).
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Descriptions, Drawer, Form, Grid, Input, Select, Space, Table, Tag, Typography } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { getCallbacks, getOrders, markPaid, moneyKeys, ORDER_STATUSES, PROVIDERS, refundOrder, type Order, type OrderFilter } from './api'
import { yuan } from './format'
import { ReasonModal } from '@/components/ReasonModal'

const statusColor: Record<string, string> = { paid: 'green', pending: 'gold', refunded: 'purple', cancelled: 'default', expired: 'default' }

interface FilterForm {
  status?: string
  uid?: string
  orderNo?: string
  provider?: string
  from?: string
  to?: string
}

export function OrdersPage() {
  const t = useT()
  const screens = Grid.useBreakpoint()
  const [filter, setFilter] = useState<OrderFilter>({})
  const [pager, setPager] = useState<PagerState>(firstPage)
  const [open, setOpen] = useState<Order | null>(null)
  const cursor = cursorOf(pager)
  const q = useQuery({ queryKey: moneyKeys.orders(filter, cursor), queryFn: () => getOrders(filter, cursor), placeholderData: keepPreviousData })
  const apply = (v: FilterForm) => {
    const uid = Number(v.uid?.trim() ?? '')
    setFilter({
      status: v.status || undefined,
      uid: Number.isSafeInteger(uid) && uid > 0 ? uid : undefined,
      orderNo: v.orderNo?.trim() || undefined,
      provider: v.provider || undefined,
      from: v.from || undefined,
      to: v.to || undefined,
    })
    setPager(firstPage)
  }
  return (
    <Page title={t('money.orders')}>
      <Form<FilterForm> layout="inline" className="money-filters" onFinish={apply} data-testid="orders-filter">
        <Form.Item name="status">
          <Select allowClear placeholder={t('money.status')} style={{ width: 120 }} options={ORDER_STATUSES.map((s) => ({ value: s, label: t(`money.order.${s}`) }))} data-testid="orders-status" />
        </Form.Item>
        <Form.Item name="provider">
          <Select allowClear placeholder={t('money.provider')} style={{ width: 140 }} options={PROVIDERS.map((p) => ({ value: p, label: p }))} />
        </Form.Item>
        <Form.Item name="uid">
          <Input placeholder="UID" inputMode="numeric" style={{ width: 110 }} data-testid="orders-uid" />
        </Form.Item>
        <Form.Item name="orderNo">
          <Input placeholder={t('money.orderNo')} style={{ width: 200 }} data-testid="orders-no" />
        </Form.Item>
        <Form.Item name="from" label={t('money.from')}>
          <Input type="date" style={{ width: 150 }} data-testid="orders-from" />
        </Form.Item>
        <Form.Item name="to" label={t('money.to')}>
          <Input type="date" style={{ width: 150 }} data-testid="orders-to" />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />} data-testid="orders-search">
            {t('money.search')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" className="money-note">
        {t('money.daysNote')}
      </Typography.Paragraph>
      <QueryTable<Order>
        query={q}
        empty={t('money.ordersEmpty')}
        rowKey="orderNo"
        dataSource={q.data?.list}
        data-testid="orders-table"
        onRow={(o) => ({ onClick: () => setOpen(o), className: 'clickable' })}
        columns={[
          {
            title: t('money.orderNo'),
            dataIndex: 'orderNo',
            render: (no: string, o) => (
              <Space direction="vertical" size={0}>
                <Button type="link" size="small" onClick={() => setOpen(o)} data-testid={`order-open-${no}`}>
                  {no}
                </Button>
                {/* On a phone the state column is off screen: say it here. */}
                {screens.sm ? null : <Tag color={statusColor[o.status]}>{t(`money.order.${o.status}`)}</Tag>}
              </Space>
            ),
          },
          { title: t('money.status'), dataIndex: 'status', responsive: ['sm'], render: (s: string) => <Tag color={statusColor[s]}>{t(`money.order.${s}` as 'money.order.paid')}</Tag> },
          { title: t('money.amount'), dataIndex: 'amount', render: (c: number) => `¥${yuan(c)}` },
          { title: 'UID', dataIndex: 'uid', responsive: ['sm'] },
          { title: t('money.product'), dataIndex: 'title', responsive: ['md'] },
          { title: t('money.provider'), dataIndex: 'payType', responsive: ['sm'] },
          { title: t('money.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
          { title: t('money.paidAt'), dataIndex: 'paidAt', render: formatTime, responsive: ['lg'] },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <OrderDrawer order={open} onClose={() => setOpen(null)} onChanged={setOpen} />
    </Page>
  )
}

function OrderDrawer({ order, onClose, onChanged }: { order: Order | null; onClose: () => void; onChanged: (o: Order) => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const screens = Grid.useBreakpoint()
  const [asking, setAsking] = useState<'paid' | 'refund' | null>(null)
  const no = order?.orderNo ?? ''
  const cb = useQuery({ queryKey: moneyKeys.callbacks(no), queryFn: () => getCallbacks(no), enabled: order !== null })
  const act = useMutation({
    mutationFn: (v: { kind: 'paid' | 'refund'; reason: string }) => (v.kind === 'paid' ? markPaid(no, v.reason) : refundOrder(no, v.reason)),
    onSuccess: (o, v) => {
      void message.success(t(v.kind === 'paid' ? 'money.markedPaid' : 'money.refunded'))
      setAsking(null)
      onChanged(o)
      void qc.invalidateQueries({ queryKey: moneyKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const canPay = order && ['pending', 'expired', 'cancelled'].includes(order.status)
  const canRefund = order?.status === 'paid'
  return (
    <Drawer open={order !== null} onClose={onClose} title={t('money.orderTitle', { no })} size={screens.md ? 720 : '100%'} destroyOnHidden data-testid="order-drawer">
      {order ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('money.status')}>
              <Tag color={statusColor[order.status]} data-testid="order-status">
                {t(`money.order.${order.status}`)}
              </Tag>
            </Descriptions.Item>
            <Descriptions.Item label="UID">{order.uid}</Descriptions.Item>
            <Descriptions.Item label={t('money.product')}>
              {order.title} ({order.productType === 'vip' ? t('money.vipDays', { n: order.vipDays }) : t('money.coinsN', { n: order.coins + order.bonus })})
            </Descriptions.Item>
            <Descriptions.Item label={t('money.amount')}>¥{yuan(order.amount)}</Descriptions.Item>
            <Descriptions.Item label={t('money.provider')}>{order.payType}</Descriptions.Item>
            <Descriptions.Item label={t('money.tradeNo')}>{order.tradeNo || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('money.createdAt')}>{formatTime(order.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('money.paidAt')}>{formatTime(order.paidAt)}</Descriptions.Item>
          </Descriptions>
          <Space wrap>
            <Button type="primary" disabled={!canPay} onClick={() => setAsking('paid')} data-testid="order-mark-paid">
              {t('money.markPaid')}
            </Button>
            <Button danger disabled={!canRefund} onClick={() => setAsking('refund')} data-testid="order-refund">
              {t('money.refund')}
            </Button>
          </Space>
          <div>
            <Typography.Title level={5}>{t('money.callbacks')}</Typography.Title>
            {cb.isError ? (
              <ErrorState error={cb.error} onRetry={() => void cb.refetch()} />
            ) : (
              <Table
                size="small"
                rowKey="id"
                loading={cb.isPending}
                pagination={false}
                scroll={{ x: 'max-content' }}
                dataSource={cb.data}
                locale={{ emptyText: t('money.noCallbacks') }}
                data-testid="order-callbacks"
                columns={[
                  { title: t('money.time'), dataIndex: 'createdAt', render: formatTime },
                  { title: t('money.provider'), dataIndex: 'provider' },
                  { title: t('money.outcome'), dataIndex: 'outcome', render: (o: string) => <Tag>{o}</Tag> },
                  { title: t('money.detail'), dataIndex: 'detail' },
                ]}
              />
            )}
          </div>
        </Space>
      ) : null}
      <ReasonModal
        open={asking !== null}
        title={asking === 'refund' ? t('money.refundTitle', { no }) : t('money.markPaidTitle', { no })}
        intro={<Typography.Paragraph type="secondary">{asking === 'refund' ? t('money.refundIntro') : t('money.markPaidIntro')}</Typography.Paragraph>}
        danger={asking === 'refund'}
        pending={act.isPending}
        onCancel={() => setAsking(null)}
        testId="money-reason"
        onOk={({ reason }) => asking && act.mutate({ kind: asking, reason })}
      />
    </Drawer>
  )
}
