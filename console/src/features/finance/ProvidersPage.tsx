// 资金 → 支付渠道: each configured payment provider with its switch (POST
// /api/admin/providers, step-up) and its gateway's health: the last
// callback, the last 24 hours' callbacks and failures, the last failure.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Space, Switch, Tag, Typography } from 'antd'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { financeKeys, getProviders, switchProvider, type Provider } from './api'
import { useSave } from '@/components/hooks'

export function ProvidersPage() {
  const t = useT()
  const { message } = App.useApp()
  const qc = useQueryClient()
  const q = useQuery({ queryKey: financeKeys.providers, queryFn: getProviders, refetchInterval: 60_000 })
  const flip = useSave(
    (v: { name: string; enabled: boolean }) => switchProvider(v.name, v.enabled),
    null,
    financeKeys.providers,
    (r) => {
      // The answer carries the provider as it now is: the switch shows it at
      // once, with the toast, rather than after the list's refetch.
      qc.setQueryData<Provider[]>(financeKeys.providers, (list) => list?.map((p) => (p.name === r.provider.name ? r.provider : p)))
      void message.success(t(r.provider.enabled ? 'finance.providers.on' : 'finance.providers.off', { name: r.provider.title }))
    },
  )
  return (
    <Page title={t('finance.nav.providers')}>
      <Typography.Paragraph type="secondary">{t('finance.providers.hint')}</Typography.Paragraph>
      <QueryTable<Provider>
        query={q}
        empty={t('finance.providers.empty')}
        rowKey="name"
        dataSource={q.data}
        data-testid="providers-table"
        columns={[
          {
            title: t('finance.providers.name'),
            key: 'name',
            render: (_, p) => (
              <Space direction="vertical" size={0}>
                <span>{p.title}</span>
                <Typography.Text type="secondary" className="mono">
                  {p.name}
                </Typography.Text>
              </Space>
            ),
          },
          {
            title: t('finance.providers.enabled'),
            key: 'enabled',
            render: (_, p) =>
              p.configured ? (
                <Switch
                  checked={p.enabled}
                  loading={flip.isPending && flip.variables?.name === p.name}
                  onChange={(on) => flip.mutate({ name: p.name, enabled: on })}
                  aria-label={p.title}
                  data-testid={`provider-switch-${p.name}`}
                />
              ) : (
                <Tag>{t('finance.providers.notConfigured')}</Tag>
              ),
          },
          { title: t('finance.providers.lastNotify'), dataIndex: 'lastNotifyAt', render: (at: Provider['lastNotifyAt']) => (at ? formatTime(at) : t('finance.providers.never')), responsive: ['sm'] },
          { title: t('finance.providers.notifies'), dataIndex: 'notifies24h', responsive: ['md'] },
          {
            title: t('finance.providers.failures'),
            dataIndex: 'failures24h',
            render: (n: number) => (n > 0 ? <Typography.Text type="danger" strong>{n}</Typography.Text> : 0),
          },
          {
            title: t('finance.providers.lastFailure'),
            key: 'lastFailure',
            responsive: ['md'],
            render: (_, p) =>
              p.lastFailure ? (
                <span className="finance-failure">
                  <Tag color="red">{p.lastFailure.outcome}</Tag>
                  {formatTime(p.lastFailure.createdAt)} {p.lastFailure.orderNo ? <span className="mono">{p.lastFailure.orderNo}</span> : null}
                  <Typography.Text type="secondary" className="finance-detail">
                    {p.lastFailure.detail}
                  </Typography.Text>
                </span>
              ) : (
                '—'
              ),
          },
        ]}
      />
    </Page>
  )
}
