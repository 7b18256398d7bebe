// 资金 → 对账: for each Asia/Shanghai day of a range (at most 92), each
// book against the ledger's system account (GET /api/admin/reconciliation):
// top-up orders by provider against sys:cent:payments, paid withdrawals
// against sys:cent:payouts, commission and creator earnings against their
// pending accounts. A non-zero difference is red. 运行账本检查 runs what
// `prima wallet check` runs (POST /api/admin/wallet/check).
import { useState, type HTMLAttributes } from 'react'
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query'
import { Alert, App, Button, DatePicker, Space, Table, Tag, Typography } from 'antd'
import { SafetyOutlined } from '@ant-design/icons'
import dayjs, { type Dayjs } from 'dayjs'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { errorTip } from '@/components/ErrorState'
import { financeKeys, getReconciliation, runLedgerCheck, type CheckResult, type ProviderRecon, type ReconDay } from './api'
import { MAX_RECON_DAYS, addDays, daysBetween, shanghaiDate, yuan } from './money'
import { PairCell } from './shared'

function CheckAlert({ res, onClose }: { res: CheckResult; onClose: () => void }) {
  const t = useT()
  return (
    <Alert
      className="finance-result"
      type={res.ok ? 'success' : 'error'}
      showIcon
      closable
      onClose={onClose}
      title={res.ok ? t('finance.check.ok', { m: res.movements, e: res.entries }) : t('finance.check.bad', { n: res.breaches.length })}
      description={
        <>
          {res.ok ? null : (
            <ul className="finance-breaches">
              {res.breaches.map((b) => (
                <li key={b} className="mono">
                  {b}
                </li>
              ))}
            </ul>
          )}
          <Typography.Text type="secondary">{t('finance.check.at', { at: formatTime(res.checkedAt) })}</Typography.Text>
        </>
      }
      data-testid="ledger-check-result"
      data-ok={res.ok}
    />
  )
}

function ProvidersOf({ day }: { day: ReconDay }) {
  const t = useT()
  return (
    <Table<ProviderRecon>
      size="small"
      rowKey="payType"
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={day.topup.providers}
      columns={[
        { title: t('finance.recon.providers'), dataIndex: 'payType', render: (p: string) => <span className="mono">{p}</span> },
        { title: t('finance.recon.paid'), dataIndex: 'paid', render: (c: number) => yuan(c) },
        { title: t('finance.recon.refunded'), dataIndex: 'refunded', render: (c: number) => yuan(c) },
        { title: `${t('finance.recon.records')} / ${t('finance.recon.ledger')}`, key: 'pair', render: (_, p) => <PairCell pair={p} /> },
      ]}
    />
  )
}

export function ReconciliationPage() {
  const t = useT()
  const { message } = App.useApp()
  const today = shanghaiDate(Date.now())
  const [range, setRange] = useState<[string, string]>([addDays(today, -6), today])
  const [from, to] = range
  const tooLong = daysBetween(from, to) > MAX_RECON_DAYS
  const q = useQuery({
    queryKey: financeKeys.recon(from, to),
    queryFn: () => getReconciliation(from, to),
    enabled: !tooLong,
    placeholderData: keepPreviousData,
  })
  const [check, setCheck] = useState<CheckResult | null>(null)
  const run = useMutation({ mutationFn: runLedgerCheck, onSuccess: setCheck, onError: (e) => void message.error(errorTip(e, t)) })
  const bad = q.data?.days.filter((d) => !d.ok).length ?? 0
  return (
    <Page
      title={t('finance.nav.reconciliation')}
      extra={
        <Button icon={<SafetyOutlined />} loading={run.isPending} onClick={() => run.mutate()} data-testid="ledger-check">
          {t('finance.check.run')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('finance.recon.hint')}</Typography.Paragraph>
      {check ? <CheckAlert res={check} onClose={() => setCheck(null)} /> : null}
      <Space wrap className="finance-gap">
        <DatePicker.RangePicker
          value={[dayjs(from), dayjs(to)]}
          allowClear={false}
          onChange={(v) => {
            const [a, b] = (v ?? []) as [Dayjs | null, Dayjs | null]
            if (a && b) setRange([a.format('YYYY-MM-DD'), b.format('YYYY-MM-DD')])
          }}
          aria-label={t('finance.recon.range')}
          data-testid="recon-range"
        />
        {tooLong ? <Typography.Text type="danger">{t('finance.recon.tooLong', { n: MAX_RECON_DAYS })}</Typography.Text> : null}
        {bad > 0 ? (
          <Typography.Text type="danger" strong data-testid="recon-bad-days">
            {t('finance.recon.badDays', { n: bad })}
          </Typography.Text>
        ) : null}
      </Space>
      <QueryTable<ReconDay>
        query={q}
        empty={t('finance.recon.empty')}
        rowKey="date"
        dataSource={tooLong ? [] : q.data?.days}
        rowClassName={(d) => (d.ok ? '' : 'finance-bad-row')}
        expandable={{ expandedRowRender: (d) => <ProvidersOf day={d} />, rowExpandable: (d) => d.topup.providers.length > 0 }}
        data-testid="recon-table"
        onRow={(d) => ({ 'data-testid': `recon-day-${d.date}` }) as HTMLAttributes<HTMLElement>}
        columns={[
          { title: t('finance.recon.date'), dataIndex: 'date', fixed: 'left' },
          {
            title: t('finance.recon.status'),
            key: 'ok',
            render: (_, d) => (d.ok ? <Tag color="green">{t('finance.recon.ok')}</Tag> : <Tag color="red">{t('finance.recon.bad')}</Tag>),
          },
          { title: t('finance.recon.topup'), key: 'topup', render: (_, d) => <PairCell pair={d.topup} testId={`recon-topup-${d.date}`} /> },
          { title: t('finance.recon.payouts'), key: 'payouts', render: (_, d) => <PairCell pair={d.payouts} /> },
          { title: t('finance.recon.commission'), key: 'commission', render: (_, d) => <PairCell pair={d.commission} /> },
          { title: t('finance.recon.creator'), key: 'creator', render: (_, d) => <PairCell pair={d.creator} /> },
        ]}
      />
    </Page>
  )
}
