// 资金 → 提现审核: the withdrawal queue (pending first: oldest first, the
// one who waited longest is paid first), other states newest first. A row
// opens a drawer with the payee's full account (copy it to pay), the
// user's earlier withdrawals and risk signals; approve after paying out,
// or reject with a reason. Select several pending rows to approve them
// together. Above the owner's threshold a withdrawal needs two different
// operators: the first approval marks it 待复核 with who approved, a second
// operator's approval pays it. The owner sets the threshold here.
import { useState } from 'react'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Card, Descriptions, Drawer, Grid, Input, Popconfirm, Segmented, Space, Spin, Table, Tag, Typography } from 'antd'
import { CheckOutlined } from '@ant-design/icons'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { getSession, sessionKeys } from '@/lib/session'
import { Page } from '@/components/Page'
import { Pager } from '@/components/Pager'
import { QueryTable } from '@/components/QueryTable'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { cursorOf, firstPage, newer, older, type Pager as PagerState } from '@/lib/pager'
import {
  approve,
  approveMany,
  getRisk,
  getWithdrawals,
  getWithdrawSettings,
  moneyKeys,
  reject,
  setWithdrawSettings,
  type Decision,
  type Withdrawal,
  type WithdrawStatus,
} from './api'
import { centsOf, yuan } from './format'
import { accountText, kindLabel, pendingOnly, stateColor, stateLabel, who } from './logic'
import { ReasonModal } from '@/components/ReasonModal'

const STATES: (WithdrawStatus | '')[] = ['pending', 'paid', 'rejected', '']

export function WithdrawalsPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message, modal } = App.useApp()
  const screens = Grid.useBreakpoint()
  const [status, setStatus] = useState<WithdrawStatus | ''>('pending')
  const [pager, setPager] = useState<PagerState>(firstPage)
  const [selected, setSelected] = useState<string[]>([])
  const [open, setOpen] = useState<string | null>(null)
  const cursor = cursorOf(pager)
  const q = useQuery({ queryKey: moneyKeys.withdrawals(status, undefined, cursor), queryFn: () => getWithdrawals(status, undefined, cursor), placeholderData: keepPreviousData })
  const bulk = useMutation({
    mutationFn: approveMany,
    onSuccess: (r) => {
      const paid = r.results.filter((i) => i.changed).length
      const awaiting = r.results.filter((i) => i.awaitingSecond).length
      const failed = r.results.filter((i) => i.error)
      void message.success(t('money.bulkDone', { paid, awaiting }))
      if (failed.length > 0)
        modal.warning({
          title: t('money.bulkFailed', { n: failed.length }),
          content: (
            <ul data-testid="bulk-failed">
              {failed.map((f) => (
                <li key={f.orderNo}>
                  {f.orderNo}: {f.error}
                </li>
              ))}
            </ul>
          ),
        })
      setSelected([])
      void qc.invalidateQueries({ queryKey: moneyKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const list = q.data?.list
  const current = list?.find((w) => w.orderNo === open) ?? null
  return (
    <Page
      title={t('money.withdrawals')}
      extra={
        <Popconfirm title={t('money.bulkConfirm', { n: selected.length })} onConfirm={() => bulk.mutate(pendingOnly(selected, list))} okButtonProps={{ ...{ 'data-testid': 'bulk-approve-ok' } }}>
          <Button type="primary" icon={<CheckOutlined />} disabled={selected.length === 0 || bulk.isPending} loading={bulk.isPending} data-testid="bulk-approve">
            {t('money.approveSelected', { n: selected.length })}
          </Button>
        </Popconfirm>
      }
    >
      <ThresholdCard />
      <Segmented<WithdrawStatus | ''>
        value={status}
        onChange={(v) => {
          setStatus(v)
          setPager(firstPage)
          setSelected([])
        }}
        options={STATES.map((s) => ({ value: s, label: t(s ? (`money.w.${s}` as MessageKey) : 'money.all') }))}
        data-testid="withdraw-status"
        className="money-seg"
      />
      <QueryTable<Withdrawal>
        query={q}
        empty={t(status === 'pending' ? 'money.queueEmpty' : 'money.withdrawalsEmpty')}
        rowKey="orderNo"
        dataSource={list}
        data-testid="withdrawals-table"
        rowSelection={{
          selectedRowKeys: selected,
          onChange: (keys) => setSelected(keys.map(String)),
          getCheckboxProps: (w) => ({ disabled: w.status !== 'pending', 'data-testid': `w-select-${w.orderNo}` }) as object,
        }}
        columns={[
          {
            title: t('money.orderNo'),
            dataIndex: 'orderNo',
            render: (no: string, w) => (
              <Space direction="vertical" size={0}>
                <Button type="link" size="small" onClick={() => setOpen(no)} data-testid={`w-open-${no}`}>
                  {no}
                </Button>
                {/* On a phone the state column is off screen: say it here. */}
                {screens.sm ? null : (
                  <Space size={4} wrap>
                    <Tag color={stateColor(w)}>{t(stateLabel(w))}</Tag>
                    {w.awaitingSecond ? <Typography.Text type="secondary">{t('money.firstBy', { id: who(w.firstApproverName, w.firstApproverID) })}</Typography.Text> : null}
                  </Space>
                )}
              </Space>
            ),
          },
          { title: t('money.amount'), dataIndex: 'amount', render: (c: number) => `¥${yuan(c)}` },
          {
            title: t('money.status'),
            key: 'status',
            responsive: ['sm'],
            render: (_, w) => (
              <Space size={4} wrap>
                <Tag color={stateColor(w)} data-testid={`w-state-${w.orderNo}`}>
                  {t(stateLabel(w))}
                </Tag>
                {w.awaitingSecond ? <Typography.Text type="secondary">{t('money.firstBy', { id: who(w.firstApproverName, w.firstApproverID) })}</Typography.Text> : null}
              </Space>
            ),
          },
          { title: 'UID', dataIndex: 'uid', responsive: ['sm'] },
          { title: t('money.net'), dataIndex: 'net', render: (c: number) => `¥${yuan(c)}`, responsive: ['md'] },
          { title: t('money.payee'), key: 'payee', render: (_, w) => <Typography.Text className="money-account">{accountText(w)}</Typography.Text>, responsive: ['lg'] },
          { title: t('money.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
        ]}
      />
      <Pager labels="page" page={pager.index + 1} hasPrev={pager.index > 0} hasNext={!!q.data?.nextCursor} busy={q.isFetching} onPrev={() => setPager(newer)} onNext={() => setPager((p) => older(p, q.data?.nextCursor ?? null))} />
      <WithdrawalDrawer w={current} onClose={() => setOpen(null)} />
    </Page>
  )
}

// The two-person threshold: everyone sees it; the owner changes it.
function ThresholdCard() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const session = useQuery({ queryKey: sessionKeys.all, queryFn: getSession, staleTime: 60_000 })
  const s = useQuery({ queryKey: moneyKeys.settings, queryFn: getWithdrawSettings })
  const [text, setText] = useState<string | null>(null)
  const save = useMutation({
    mutationFn: setWithdrawSettings,
    onSuccess: () => {
      void message.success(t('money.thresholdSaved'))
      setText(null)
      void qc.invalidateQueries({ queryKey: moneyKeys.settings })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  if (s.isError) return <Alert type="error" showIcon title={errorTip(s.error, t)} />
  const above = s.data?.twoPersonAbove ?? 0
  const owner = session.data?.role === 'owner'
  const value = text ?? (above > 0 ? yuan(above) : '0')
  const cents = centsOf(value)
  return (
    <Card size="small" className="money-threshold" data-testid="threshold-card">
      <Space wrap align="center">
        <Typography.Text strong>{t('money.twoPerson')}</Typography.Text>
        {s.isPending ? (
          <Spin size="small" />
        ) : owner ? (
          <>
            <Input prefix="¥" value={value} onChange={(e) => setText(e.target.value)} inputMode="decimal" style={{ width: 160 }} status={cents === null ? 'error' : undefined} data-testid="threshold-input" />
            <Button type="primary" disabled={cents === null || cents === above} loading={save.isPending} onClick={() => cents !== null && save.mutate(cents)} data-testid="threshold-save">
              {t('money.save')}
            </Button>
          </>
        ) : (
          <Typography.Text data-testid="threshold-value">{above > 0 ? `¥${yuan(above)}` : t('money.off')}</Typography.Text>
        )}
        <Typography.Text type="secondary">{above > 0 ? t('money.twoPersonOn', { amount: yuan(above) }) : t('money.twoPersonOff')}</Typography.Text>
      </Space>
    </Card>
  )
}

function WithdrawalDrawer({ w, onClose }: { w: Withdrawal | null; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const screens = Grid.useBreakpoint()
  const [rejecting, setRejecting] = useState(false)
  const no = w?.orderNo ?? ''
  const risk = useQuery({ queryKey: moneyKeys.risk(no), queryFn: () => getRisk(no), enabled: w !== null })
  const history = useQuery({ queryKey: moneyKeys.withdrawals('', w?.uid, null), queryFn: () => getWithdrawals('', w?.uid, null), enabled: w !== null })
  const done = (d: Decision) => {
    if (d.awaitingSecond) void message.info(t('money.awaitingSecond'))
    else if (d.changed) void message.success(t(d.withdrawal.status === 'paid' ? 'money.paidDone' : 'money.rejectedDone'))
    else void message.info(t('money.decidedBefore'))
    setRejecting(false)
    void qc.invalidateQueries({ queryKey: moneyKeys.all })
  }
  const fail = (e: unknown) => void message.error(errorTip(e, t))
  const ok = useMutation({ mutationFn: () => approve(no), onSuccess: done, onError: fail })
  const no2 = useMutation({ mutationFn: (reason: string) => reject(no, reason), onSuccess: done, onError: fail })
  const busy = ok.isPending || no2.isPending
  const r = risk.data
  return (
    <Drawer open={w !== null} onClose={onClose} title={t('money.withdrawalTitle', { no })} size={screens.md ? 720 : '100%'} destroyOnHidden data-testid="withdrawal-drawer">
      {w ? (
        <Space direction="vertical" size="large" style={{ width: '100%' }}>
          {w.awaitingSecond ? <Alert type="warning" showIcon title={t('money.awaitingBanner', { id: who(w.firstApproverName, w.firstApproverID), at: formatTime(w.firstApprovedAt) })} data-testid="awaiting-banner" /> : null}
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('money.status')}>
              <Tag color={stateColor(w)} data-testid="drawer-state">
                {t(stateLabel(w))}
              </Tag>
              {w.reason ? <Typography.Text type="secondary">{w.reason}</Typography.Text> : null}
            </Descriptions.Item>
            <Descriptions.Item label="UID">{w.uid}</Descriptions.Item>
            <Descriptions.Item label={t('money.amount')}>
              ¥{yuan(w.amount)} · {t('money.fee')} ¥{yuan(w.fee)} · {t('money.net')} <Typography.Text strong>¥{yuan(w.net)}</Typography.Text>
            </Descriptions.Item>
            {w.account.actType === 2 ? (
              <>
                <Descriptions.Item label={t('money.network')}>USDT {w.account.network}</Descriptions.Item>
                <Descriptions.Item label={t('money.address')}>
                  <Typography.Text copyable code className="money-account" data-testid="payee-number">
                    {w.account.number}
                  </Typography.Text>
                </Descriptions.Item>
              </>
            ) : (
              <>
                <Descriptions.Item label={t('money.bank')}>{w.account.bankName}</Descriptions.Item>
                <Descriptions.Item label={t('money.holder')}>
                  <Typography.Text copyable>{w.account.holder}</Typography.Text>
                </Descriptions.Item>
                <Descriptions.Item label={t('money.cardNo')}>
                  <Typography.Text copyable code className="money-account" data-testid="payee-number">
                    {w.account.number}
                  </Typography.Text>
                </Descriptions.Item>
              </>
            )}
            <Descriptions.Item label={t('money.createdAt')}>{formatTime(w.createdAt)}</Descriptions.Item>
            {w.decidedAt ? <Descriptions.Item label={t('money.decidedAt')}>{`${formatTime(w.decidedAt)} · ${who(w.operatorName, w.operatorID)}${w.firstApproverID && w.status === 'paid' ? ` + ${who(w.firstApproverName, w.firstApproverID)}` : ''}`}</Descriptions.Item> : null}
          </Descriptions>
          {w.status === 'pending' ? (
            <Space wrap>
              <Popconfirm title={t('money.approveConfirm', { amount: yuan(w.net) })} onConfirm={() => ok.mutate()} okButtonProps={{ ...{ 'data-testid': 'approve-ok' } }}>
                <Button type="primary" disabled={busy} loading={ok.isPending} data-testid="withdraw-approve">
                  {t(w.awaitingSecond ? 'money.approveSecond' : 'money.approve')}
                </Button>
              </Popconfirm>
              <Button danger disabled={busy} onClick={() => setRejecting(true)} data-testid="withdraw-reject">
                {t('money.reject')}
              </Button>
            </Space>
          ) : null}
          <div>
            <Typography.Title level={5}>{t('money.risk')}</Typography.Title>
            {risk.isError ? (
              <ErrorState error={risk.error} onRetry={() => void risk.refetch()} />
            ) : !r ? (
              <Spin />
            ) : (
              <Descriptions column={screens.md ? 2 : 1} size="small" bordered data-testid="risk">
                <Descriptions.Item label={t('money.accountAge')}>
                  <Tag color={r.accountAgeDays < 7 ? 'red' : undefined}>{t('money.days', { n: r.accountAgeDays })}</Tag>
                  {formatTime(r.registeredAt)}
                  {r.registered ? null : <Tag color="red">{t('money.guest')}</Tag>}
                </Descriptions.Item>
                <Descriptions.Item label={t('money.payoutAge')}>
                  <Tag color={r.payoutAccountAgeDays < 3 ? 'red' : undefined}>{t('money.days', { n: r.payoutAccountAgeDays })}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('money.topUps7d')}>{t('money.tally', { n: r.topUps7d.count, amount: yuan(r.topUps7d.cents) })}</Descriptions.Item>
                <Descriptions.Item label={t('money.topUps30d')}>{t('money.tally', { n: r.topUps30d.count, amount: yuan(r.topUps30d.cents) })}</Descriptions.Item>
                <Descriptions.Item label={t('money.prevPaid')}>{t('money.tally', { n: r.paid.count, amount: yuan(r.paid.cents) })}</Descriptions.Item>
                <Descriptions.Item label={t('money.prevRejected')}>
                  <span className={r.rejected.count > 0 ? 'money-warn' : undefined}>{t('money.tally', { n: r.rejected.count, amount: yuan(r.rejected.cents) })}</span>
                </Descriptions.Item>
                <Descriptions.Item label={t('money.otherPending')}>{t('money.tally', { n: r.pending.count, amount: yuan(r.pending.cents) })}</Descriptions.Item>
                <Descriptions.Item label={t('money.sharedPayout')}>
                  <Tag color={r.sharedPayoutUsers > 0 ? 'red' : undefined}>{r.sharedPayoutUsers}</Tag>
                </Descriptions.Item>
                <Descriptions.Item label={t('money.incomeSources')} span={2}>
                  {r.incomeSources.length === 0 ? (
                    t('money.none')
                  ) : (
                    <Space size={4} wrap>
                      {r.incomeSources.map((s) => (
                        <Tag key={s.kind}>
                          {kindLabel(t, s.kind)} ¥{yuan(s.cents)} ×{s.count}
                        </Tag>
                      ))}
                    </Space>
                  )}
                </Descriptions.Item>
              </Descriptions>
            )}
          </div>
          <div>
            <Typography.Title level={5}>{t('money.history')}</Typography.Title>
            {history.isError ? (
              <ErrorState error={history.error} onRetry={() => void history.refetch()} />
            ) : (
              <Table<Withdrawal>
                size="small"
                rowKey="orderNo"
                loading={history.isPending}
                pagination={false}
                scroll={{ x: 'max-content' }}
                dataSource={history.data?.list}
                columns={[
                  { title: t('money.orderNo'), dataIndex: 'orderNo' },
                  { title: t('money.amount'), dataIndex: 'amount', render: (c: number) => `¥${yuan(c)}` },
                  { title: t('money.status'), key: 's', render: (_, h) => <Tag color={stateColor(h)}>{t(stateLabel(h))}</Tag> },
                  { title: t('money.createdAt'), dataIndex: 'createdAt', render: formatTime },
                ]}
              />
            )}
          </div>
        </Space>
      ) : null}
      <ReasonModal open={rejecting} title={t('money.rejectTitle', { no })} intro={<Typography.Paragraph type="secondary">{t('money.rejectIntro')}</Typography.Paragraph>} danger pending={no2.isPending} testId="money-reason" onCancel={() => setRejecting(false)} onOk={({ reason }) => no2.mutate(reason)} />
    </Drawer>
  )
}
