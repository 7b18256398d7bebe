// 资金 → 用户钱包: a user's balances (coins, income and what withdrawals
// hold, points) and every entry of the three accounts, newest first, one
// account or all, paged by cursor; an adjustment of one balance with an
// amount and a reason (step-up; the server refuses a debit below zero).
// Opened by uid (the box, or ?uid= from the people drawer).
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Col, Empty, Form, Input, Modal, Radio, Row, Segmented, Space, Statistic, Tag, Typography } from 'antd'
import { SearchOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import { ACCOUNTS, adjust, getWallet, moneyKeys, type Account, type Entry } from './api'
import { newKey, signedAmount, yuan } from './format'
import { kindLabel } from './logic'

// MAX_ADJUST is the server's bound on one adjustment (coins, cents or points).
const MAX_ADJUST = 100_000_000

const amountText = (e: Pick<Entry, 'account' | 'amount'>) => (e.account === 'income' ? `${e.amount < 0 ? '-' : ''}¥${yuan(Math.abs(e.amount))}` : String(e.amount))

export function WalletPage() {
  const t = useT()
  const [params, setParams] = useSearchParams()
  const uid = Number(params.get('uid') ?? '')
  const valid = Number.isSafeInteger(uid) && uid > 0
  const [box, setBox] = useState(valid ? String(uid) : '')
  const [account, setAccount] = useState<Account | ''>('')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const [adjusting, setAdjusting] = useState(false)
  const cursor = cursorOf(pager)
  const q = useQuery({ queryKey: moneyKeys.wallet(uid, account, cursor), queryFn: () => getWallet(uid, account, cursor), enabled: valid, placeholderData: keepPreviousData })
  const open = () => {
    const n = Number(box.trim())
    if (!Number.isSafeInteger(n) || n <= 0) return
    setPager(firstPage)
    setParams({ uid: String(n) })
  }
  const w = q.data
  return (
    <Page
      title={t('money.wallet')}
      extra={
        valid ? (
          <Button type="primary" onClick={() => setAdjusting(true)} data-testid="wallet-adjust">
            {t('money.adjust')}
          </Button>
        ) : null
      }
    >
      <Space.Compact style={{ maxWidth: 360, width: '100%' }}>
        <Input value={box} onChange={(e) => setBox(e.target.value)} onPressEnter={open} placeholder={t('money.uidPlaceholder')} inputMode="numeric" data-testid="wallet-uid" />
        <Button type="primary" icon={<SearchOutlined />} onClick={open} data-testid="wallet-open">
          {t('money.open')}
        </Button>
      </Space.Compact>
      {!valid ? (
        <Empty description={t('money.walletHint')} />
      ) : q.isError && !w ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <Row gutter={[12, 12]} className="money-balances">
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('money.acct.coins')} value={w?.wallet.coins ?? '—'} loading={q.isPending} data-testid="bal-coins" />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('money.acct.income')} value={w ? `¥${yuan(w.wallet.income)}` : '—'} loading={q.isPending} data-testid="bal-income" />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('money.frozen')} value={w ? `¥${yuan(w.wallet.incomeFrozen)}` : '—'} loading={q.isPending} />
              </Card>
            </Col>
            <Col xs={12} md={6}>
              <Card size="small">
                <Statistic title={t('money.acct.points')} value={w?.points ?? '—'} loading={q.isPending} data-testid="bal-points" />
              </Card>
            </Col>
          </Row>
          <Segmented<Account | ''>
            value={account}
            onChange={(v) => {
              setAccount(v)
              setPager(firstPage)
            }}
            options={[{ value: '', label: t('money.all') }, ...ACCOUNTS.map((a) => ({ value: a, label: t(`money.acct.${a}` as MessageKey) }))]}
            className="money-seg"
            data-testid="wallet-account"
          />
          <QueryTable<Entry>
            query={q}
            empty={t('money.entriesEmpty')}
            rowKey={(e) => `${e.account}-${e.id}`}
            dataSource={w?.entries}
            data-testid="wallet-entries"
            columns={[
              { title: t('money.time'), dataIndex: 'createdAt', render: formatTime },
              { title: t('money.account'), dataIndex: 'account', render: (a: Account) => <Tag>{t(`money.acct.${a}` as MessageKey)}</Tag> },
              { title: t('money.kind'), dataIndex: 'type', render: (k: string) => kindLabel(t, k), responsive: ['sm'] },
              {
                title: t('money.change'),
                key: 'amount',
                render: (_, e) => <Typography.Text type={e.amount < 0 ? 'danger' : 'success'}>{(e.amount > 0 ? '+' : '') + amountText(e)}</Typography.Text>,
              },
              { title: t('money.balanceAfter'), key: 'balance', render: (_, e) => amountText({ account: e.account, amount: e.balance }), responsive: ['sm'] },
              { title: t('money.memo'), key: 'memo', render: (_, e) => [e.memo, e.ref].filter(Boolean).join(' · ') || '—', responsive: ['md'] },
              { title: t('money.operator'), dataIndex: 'operatorID', render: (id: number) => (id ? `#${id}` : '—'), responsive: ['lg'] },
            ]}
          />
          <Pager page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!w?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, w?.nextCursor ?? null))} />
          <AdjustModal uid={uid} open={adjusting} onClose={() => setAdjusting(false)} />
        </>
      )}
    </Page>
  )
}

interface AdjustForm {
  account: Account
  amount: string
  reason: string
}

function AdjustModal({ uid, open, onClose }: { uid: number; open: boolean; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const [form] = Form.useForm<AdjustForm>()
  // One key per opening of the dialog: a retry after a lost answer (or the
  // step-up's resend) cannot post twice.
  const [key, setKey] = useState(newKey)
  const account = Form.useWatch('account', form) ?? 'coins'
  const save = useMutation({
    mutationFn: (v: AdjustForm) => adjust({ uid, account: v.account, amount: signedAmount(v.amount, v.account === 'income', MAX_ADJUST) ?? 0, reason: v.reason.trim(), idempotencyKey: key }),
    onSuccess: () => {
      void message.success(t('money.adjusted'))
      form.resetFields()
      setKey(newKey())
      onClose()
      void qc.invalidateQueries({ queryKey: moneyKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <Modal
      open={open}
      title={t('money.adjustTitle', { uid })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('common.confirm')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: save.isPending, ...{ 'data-testid': 'adjust-ok' } }}
      forceRender
    >
      <Form<AdjustForm> form={form} layout="vertical" requiredMark={false} initialValues={{ account: 'coins' }} onFinish={(v) => save.mutate(v)}>
        <Form.Item name="account" label={t('money.account')}>
          <Radio.Group optionType="button" options={ACCOUNTS.map((a) => ({ value: a, label: t(`money.acct.${a}` as MessageKey) }))} data-testid="adjust-account" />
        </Form.Item>
        <Form.Item
          name="amount"
          label={t(account === 'income' ? 'money.amountYuan' : 'money.amountUnits')}
          extra={t('money.amountHint')}
          rules={[
            {
              validator: (_, v: string | undefined) =>
                signedAmount(v ?? '', account === 'income', MAX_ADJUST) === null ? Promise.reject(new Error(t('money.badAmount'))) : Promise.resolve(),
            },
          ]}
        >
          <Input inputMode="decimal" placeholder={account === 'income' ? '-12.50' : '500'} data-testid="adjust-amount" />
        </Form.Item>
        <Form.Item name="reason" label={t('common.reason')} rules={[{ required: true, whitespace: true, message: t('common.needReason') }, { max: 200 }]}>
          <Input.TextArea rows={3} maxLength={200} showCount data-testid="adjust-reason" />
        </Form.Item>
      </Form>
    </Modal>
  )
}
