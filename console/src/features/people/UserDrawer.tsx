// A user's page, in a drawer: profile, VIP and its ends, balances
// (read-only, for the roles that read money), sessions with sign-out one by
// one or all, devices, invitations, recent orders, and the ban and mute
// with their dialogs and lifts.
import { useState } from 'react'
import { Link } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Descriptions, Drawer, Grid, Popconfirm, Space, Spin, Table, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { getSession, sessionKeys } from '@/lib/session'
import { RoleTag } from '@/components/RoleTag'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { banUser, getUserDetail, muteUser, peopleKeys, revokeUserSessions, type DeviceInfo, type Invitee, type Order, type SessionInfo } from './api'
import { SanctionDialog } from './SanctionDialog'
import { isForever } from './sanction'

const yuan = (cents: number) => (cents / 100).toFixed(2)

export function UserDrawer({ uid, onClose }: { uid: number | null; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const screens = Grid.useBreakpoint()
  const [dialog, setDialog] = useState<'ban' | 'mute' | null>(null)
  const q = useQuery({ queryKey: peopleKeys.detail(uid ?? 0), queryFn: () => getUserDetail(uid ?? 0), enabled: uid !== null })
  const session = useQuery({ queryKey: sessionKeys.all, queryFn: getSession, staleTime: 60_000 })
  const done = (key: MessageKey) => {
    void message.success(t(key))
    void qc.invalidateQueries({ queryKey: peopleKeys.all })
  }
  const fail = (e: unknown) => void message.error(errorTip(e, t))
  const revoke = useMutation({
    mutationFn: (v: { uid: number; id?: string }) => revokeUserSessions(v.uid, v.id),
    onSuccess: (r, v) => (v.id ? done('people.session.revoked') : (void message.success(t('people.revoked', { n: r.revoked })), void qc.invalidateQueries({ queryKey: peopleKeys.all }))),
    onError: fail,
  })
  const lift = useMutation({
    mutationFn: (v: { kind: 'ban' | 'mute'; uid: number }): Promise<unknown> => (v.kind === 'ban' ? banUser({ uid: v.uid, minutes: 0, reason: '' }) : muteUser({ uid: v.uid, minutes: 0, reason: '' })),
    onSuccess: (_, v) => done(v.kind === 'ban' ? 'people.ban.lifted' : 'people.mute.lifted'),
    onError: fail,
  })
  const d = q.data
  const u = d?.user
  return (
    <Drawer open={uid !== null} onClose={onClose} title={t('people.drawer', { uid: uid ?? '' })} size={screens.md ? 720 : '100%'} destroyOnHidden data-testid="user-drawer">
      {q.isPending ? (
        <Spin />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : d && u ? (
        <div className="stack">
          <Descriptions column={screens.md ? 2 : 1} bordered size="small" title={t('people.profile')}>
            <Descriptions.Item label={t('people.uid')}>{u.uid}</Descriptions.Item>
            <Descriptions.Item label={t('people.name')}>{u.name || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('people.account')}>{u.isGuest ? <Tag>{t('people.guest')}</Tag> : u.account}</Descriptions.Item>
            <Descriptions.Item label={t('people.mobile')}>{u.mobile || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('people.role')}>
              <RoleTag role={u.role} />
            </Descriptions.Item>
            <Descriptions.Item label={t('people.createdAt')}>{formatTime(u.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('people.vip')}>{t(`people.vip${Math.min(Math.max(d.vip.level, 0), 2)}` as MessageKey)}</Descriptions.Item>
            <Descriptions.Item label={t('people.vipUntil')}>{formatTime(d.vip.vipExpiresAt)}</Descriptions.Item>
            <Descriptions.Item label={t('people.svipUntil')}>{formatTime(d.vip.svipExpiresAt)}</Descriptions.Item>
          </Descriptions>

          <section className="people-part" data-testid="user-sanctions">
            <Typography.Title level={5}>{t('people.sanctions')}</Typography.Title>
            <div className="stack-tight">
              {d.ban ? (
                <Alert
                  type="error"
                  showIcon
                  data-testid="user-ban-state"
                  title={isForever(d.ban.bannedUntil) ? t('people.ban.forever', { reason: d.ban.reason }) : t('people.ban.active', { until: formatTime(d.ban.bannedUntil), reason: d.ban.reason })}
                />
              ) : (
                <Typography.Text type="secondary" data-testid="user-ban-state">
                  {t('people.ban.none')}
                </Typography.Text>
              )}
              {d.mute ? (
                <Alert type="warning" showIcon data-testid="user-mute-state" title={t('people.mute.active', { until: formatTime(d.mute.mutedUntil), reason: d.mute.reason })} />
              ) : (
                <Typography.Text type="secondary" data-testid="user-mute-state">
                  {t('people.mute.none')}
                </Typography.Text>
              )}
              <Space wrap>
                <Button danger onClick={() => setDialog('ban')} data-testid="user-ban">
                  {t(d.ban ? 'people.ban.change' : 'people.ban.open')}
                </Button>
                {d.ban ? (
                  <Popconfirm title={t('people.ban.liftConfirm')} onConfirm={() => lift.mutate({ kind: 'ban', uid: u.uid })}>
                    <Button loading={lift.isPending && lift.variables?.kind === 'ban'} disabled={lift.isPending} data-testid="user-unban">
                      {t('people.ban.lift')}
                    </Button>
                  </Popconfirm>
                ) : null}
                <Button onClick={() => setDialog('mute')} data-testid="user-mute">
                  {t(d.mute ? 'people.mute.change' : 'people.mute.open')}
                </Button>
                {d.mute ? (
                  <Popconfirm title={t('people.mute.liftConfirm')} onConfirm={() => lift.mutate({ kind: 'mute', uid: u.uid })}>
                    <Button loading={lift.isPending && lift.variables?.kind === 'mute'} disabled={lift.isPending} data-testid="user-unmute">
                      {t('people.mute.lift')}
                    </Button>
                  </Popconfirm>
                ) : null}
              </Space>
            </div>
          </section>

          <section className="people-part">
            <Typography.Title level={5}>{t('people.balances')}</Typography.Title>
            {d.balances ? (
              <Descriptions column={screens.md ? 3 : 1} bordered size="small" data-testid="user-balances">
                <Descriptions.Item label={t('people.coins')}>{d.balances.coins}</Descriptions.Item>
                <Descriptions.Item label={t('people.income')}>{yuan(d.balances.income)}</Descriptions.Item>
                <Descriptions.Item label={t('people.frozen')}>{yuan(d.balances.incomeFrozen)}</Descriptions.Item>
              </Descriptions>
            ) : (
              <Typography.Text type="secondary">{t('people.noMoney')}</Typography.Text>
            )}
            {/* issue 21: money — every entry and adjustments, for the roles with the money section */}
            {d.balances && session.data?.sections.includes('money') ? (
              <Link to={`/money/wallet?uid=${u.uid}`} className="people-wallet-link" data-testid="user-wallet-link">
                {t('money.walletLink')}
              </Link>
            ) : null}
          </section>

          <section className="people-part">
            <div className="people-part-head">
              <Typography.Title level={5}>{t('people.sessionsTitle')}</Typography.Title>
              <Popconfirm title={t('people.revokeConfirm')} onConfirm={() => revoke.mutate({ uid: u.uid })} okButtonProps={{ danger: true }}>
                <Button danger size="small" disabled={d.sessions.length === 0 || revoke.isPending} loading={revoke.isPending && !revoke.variables?.id} data-testid="user-revoke">
                  {t('people.revokeAll')}
                </Button>
              </Popconfirm>
            </div>
            <Table<SessionInfo>
              size="small"
              rowKey="id"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={d.sessions}
              locale={{ emptyText: t('people.session.none') }}
              data-testid="user-sessions"
              columns={[
                { title: t('people.session.device'), key: 'device', render: (_, s) => [s.sysType, s.device].filter(Boolean).join(' · ') || '—' },
                { title: t('people.session.lastSeen'), dataIndex: 'lastSeenAt', render: formatTime },
                { title: t('people.session.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
                {
                  title: t('common.actions'),
                  key: 'revoke',
                  render: (_, s) => (
                    <Popconfirm title={t('people.session.revokeConfirm')} onConfirm={() => revoke.mutate({ uid: u.uid, id: s.id })}>
                      <Button type="link" size="small" danger disabled={revoke.isPending} data-testid={`user-revoke-${s.id}`}>
                        {t('people.session.revoke')}
                      </Button>
                    </Popconfirm>
                  ),
                },
              ]}
            />
          </section>

          <section className="people-part">
            <Typography.Title level={5}>{t('people.devices')}</Typography.Title>
            <Table<DeviceInfo>
              size="small"
              rowKey="devID"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={d.devices}
              locale={{ emptyText: t('people.devices.none') }}
              columns={[
                { title: t('people.session.device'), dataIndex: 'devID', render: (id: string, r) => <span className="mono">{`${r.sysType} ${id}`}</span> },
                { title: t('people.session.lastSeen'), dataIndex: 'lastSeenAt', render: formatTime },
              ]}
            />
          </section>

          <section className="people-part">
            <Typography.Title level={5}>{t('people.invites')}</Typography.Title>
            {d.invites ? (
              <>
                <Descriptions column={screens.md ? 3 : 1} bordered size="small">
                  <Descriptions.Item label={t('people.invites.code')}>{d.invites.code || '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('people.invites.inviter')}>{d.invites.inviter ?? '—'}</Descriptions.Item>
                  <Descriptions.Item label={t('people.invites.count')}>{d.invites.invitedCount}</Descriptions.Item>
                </Descriptions>
                <Table<Invitee>
                  size="small"
                  rowKey="uid"
                  pagination={false}
                  dataSource={d.invites.recent}
                  locale={{ emptyText: t('people.invites.none') }}
                  columns={[
                    { title: t('people.uid'), dataIndex: 'uid' },
                    { title: t('people.name'), dataIndex: 'name' },
                    { title: t('people.invites.boundAt'), dataIndex: 'boundAt', render: formatTime },
                  ]}
                />
              </>
            ) : (
              <Typography.Text type="secondary">—</Typography.Text>
            )}
          </section>

          <section className="people-part">
            <Typography.Title level={5}>{t('people.orders')}</Typography.Title>
            <Table<Order>
              size="small"
              rowKey="orderNo"
              pagination={false}
              scroll={{ x: 'max-content' }}
              dataSource={d.orders}
              locale={{ emptyText: d.balances ? t('people.orders.none') : t('people.noMoney') }}
              columns={[
                { title: t('people.orders.no'), dataIndex: 'orderNo', render: (n: string) => <span className="mono">{n}</span> },
                { title: t('people.orders.title'), dataIndex: 'title' },
                { title: t('people.orders.amount'), dataIndex: 'amount', render: yuan },
                { title: t('people.orders.status'), dataIndex: 'status', render: (s: string) => <Tag>{s}</Tag> },
                { title: t('people.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
              ]}
            />
          </section>

          <div className="page-extra">
            <Link to={`/audit?target=${encodeURIComponent(`user:${u.uid}`)}`}>{t('people.auditLink')}</Link>
          </div>
          <SanctionDialog kind={dialog ?? 'ban'} uid={dialog ? u.uid : null} onClose={() => setDialog(null)} />
        </div>
      ) : null}
    </Drawer>
  )
}
