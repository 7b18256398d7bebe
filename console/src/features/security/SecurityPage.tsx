// 会话与密钥: the console sessions (mine; an owner sees every operator's)
// with revoke, and the API keys scripts use, with revoke. Ending the
// session this browser holds signs this browser out.
import { useNavigate } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Popconfirm, Tabs, Tag, Typography } from 'antd'
import { useT } from '@/i18n'
import { clearSession } from '@/lib/session-store'
import { formatTime, toMillis } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { RoleTag } from '@/components/RoleTag'
import { errorTip } from '@/components/ErrorState'
import { getKeys, getSessions, revokeKey, revokeSession, securityKeys, type ApiKey, type ConsoleSession } from './api'

function keyState(k: ApiKey, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (k.revokedAt) return 'revoked'
  const end = toMillis(k.expiresAt)
  return end !== null && end <= now ? 'expired' : 'active'
}

function Sessions() {
  const t = useT()
  const qc = useQueryClient()
  const nav = useNavigate()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: securityKeys.sessions, queryFn: getSessions })
  const revoke = useMutation({
    mutationFn: (s: ConsoleSession) => revokeSession(s.id),
    onSuccess: (_, s) => {
      if (s.current) {
        clearSession()
        qc.clear()
        nav('/login', { replace: true, state: { notice: 'signedOut' } })
        return
      }
      void message.success(t('sec.revoked'))
      void qc.invalidateQueries({ queryKey: securityKeys.sessions })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  return (
    <QueryTable<ConsoleSession>
      query={q}
      empty={t('sec.sessionsEmpty')}
      rowKey="id"
      dataSource={q.data?.list}
      data-testid="sessions-table"
      columns={[
        { title: t('sec.account'), dataIndex: 'account', render: (a: string, s) => <>{a} {s.current ? <Tag color="green">{t('sec.current')}</Tag> : null}</> },
        { title: t('sec.role'), dataIndex: 'role', render: (r: string) => <RoleTag role={r} /> },
        { title: t('sec.createdAt'), dataIndex: 'createdAt', render: formatTime },
        { title: t('sec.lastSeen'), dataIndex: 'lastSeenAt', render: formatTime },
        { title: t('sec.ip'), dataIndex: 'ip' },
        { title: t('sec.agent'), dataIndex: 'userAgent', responsive: ['lg'], render: (u: string) => <Typography.Text ellipsis={{ tooltip: u }} className="agent">{u}</Typography.Text> },
        {
          title: t('common.actions'),
          key: 'revoke',
          render: (_, s) => (
            <Popconfirm title={s.current ? t('sec.revokeSelf') : t('sec.revokeConfirm')} onConfirm={() => revoke.mutate(s)} okButtonProps={{ danger: true }}>
              <Button size="small" danger loading={revoke.isPending && revoke.variables?.id === s.id}>
                {t('sec.revoke')}
              </Button>
            </Popconfirm>
          ),
        },
      ]}
    />
  )
}

function Keys() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: securityKeys.keys, queryFn: getKeys })
  const revoke = useMutation({
    mutationFn: (k: ApiKey) => revokeKey(k.id),
    onSuccess: () => {
      void message.success(t('sec.keyRevoked'))
      void qc.invalidateQueries({ queryKey: securityKeys.keys })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const colour = { active: 'green', expired: 'default', revoked: 'red' } as const
  return (
    <div className="stack">
      <Alert type="info" showIcon title={t('sec.keysIntro')} />
      <QueryTable<ApiKey>
        query={q}
        empty={t('sec.keysEmpty')}
        rowKey="id"
        dataSource={q.data?.list}
        data-testid="keys-table"
        columns={[
          { title: t('sec.prefix'), dataIndex: 'prefix', render: (p: string) => <Typography.Text code>{p}…</Typography.Text> },
          { title: t('sec.account'), dataIndex: 'account' },
          { title: t('sec.role'), dataIndex: 'role', render: (r: string) => <RoleTag role={r} /> },
          { title: t('sec.state'), key: 'state', render: (_, k) => <Tag color={colour[keyState(k)]}>{t(keyState(k) === 'active' ? 'sec.active' : keyState(k) === 'expired' ? 'sec.expired' : 'sec.revokedState')}</Tag> },
          { title: t('sec.issuedAt'), dataIndex: 'createdAt', render: formatTime },
          { title: t('sec.expiresAt'), dataIndex: 'expiresAt', render: formatTime },
          { title: t('sec.lastUsed'), dataIndex: 'lastUsedAt', render: formatTime },
          {
            title: t('common.actions'),
            key: 'revoke',
            render: (_, k) =>
              keyState(k) === 'active' ? (
                <Popconfirm title={t('sec.keyRevokeConfirm')} onConfirm={() => revoke.mutate(k)} okButtonProps={{ danger: true }}>
                  <Button size="small" danger loading={revoke.isPending && revoke.variables?.id === k.id}>
                    {t('sec.keyRevoke')}
                  </Button>
                </Popconfirm>
              ) : null,
          },
        ]}
      />
    </div>
  )
}

export function SecurityPage() {
  const t = useT()
  return (
    <Page title={t('sec.title')}>
      <Tabs
        items={[
          { key: 'sessions', label: t('sec.sessions'), children: <Sessions /> },
          { key: 'keys', label: t('sec.keys'), children: <Keys /> },
        ]}
      />
    </Page>
  )
}
