// One user: profile, role, membership, how many devices are signed in, a
// "sign out everywhere", and a link to the audit entries about them.
import { Link } from 'react-router'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { App, Button, Descriptions, Drawer, Grid, Popconfirm, Spin, Tag } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { formatTime } from '@/lib/time'
import { RoleTag } from '@/components/RoleTag'
import { ErrorState, errorTip } from '@/components/ErrorState'
import { getUser, peopleKeys, revokeUserSessions } from './api'

export function UserDrawer({ uid, onClose }: { uid: number | null; onClose: () => void }) {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const screens = Grid.useBreakpoint()
  const q = useQuery({ queryKey: peopleKeys.byUid(uid ?? 0), queryFn: () => getUser({ by: 'uid', uid: uid ?? 0 }), enabled: uid !== null })
  const revoke = useMutation({
    mutationFn: (id: number) => revokeUserSessions(id),
    onSuccess: (r) => {
      void message.success(t('people.revoked', { n: r.revoked }))
      void qc.invalidateQueries({ queryKey: peopleKeys.all })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const u = q.data
  return (
    <Drawer open={uid !== null} onClose={onClose} title={t('people.drawer', { uid: uid ?? '' })} size={screens.md ? 560 : '100%'} destroyOnHidden data-testid="user-drawer">
      {q.isPending ? <Spin /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : u ? (
        <div className="stack">
          <Descriptions column={1} bordered size="small" title={t('people.profile')}>
            <Descriptions.Item label={t('people.uid')}>{u.uid}</Descriptions.Item>
            <Descriptions.Item label={t('people.name')}>{u.name || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('people.account')}>{u.isGuest ? <Tag>{t('people.guest')}</Tag> : u.account}</Descriptions.Item>
            <Descriptions.Item label={t('people.role')}>
              <RoleTag role={u.role} />
            </Descriptions.Item>
            <Descriptions.Item label={t('people.vip')}>{t(`people.vip${Math.min(Math.max(u.vipLevel, 0), 2)}` as MessageKey)}</Descriptions.Item>
            <Descriptions.Item label={t('people.createdAt')}>{formatTime(u.createdAt)}</Descriptions.Item>
            <Descriptions.Item label={t('people.sessions')}>
              <span data-testid="user-sessions">{u.liveSessions}</span>
            </Descriptions.Item>
          </Descriptions>
          <div className="page-extra">
            <Popconfirm title={t('people.revokeConfirm')} onConfirm={() => revoke.mutate(u.uid)} okButtonProps={{ danger: true }}>
              <Button danger disabled={u.liveSessions === 0} loading={revoke.isPending} data-testid="user-revoke">
                {t('people.revokeAll')}
              </Button>
            </Popconfirm>
            <Link to={`/audit?target=${encodeURIComponent(`user:${u.uid}`)}`}>{t('people.auditLink')}</Link>
          </div>
        </div>
      ) : null}
    </Drawer>
  )
}
