// 概览: this session (role, when it ends, step-up), what the role may use,
// the latest audit entries (audit section) and the content counts (content
// section).
import { Link, useOutletContext } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { Card, Descriptions, List, Statistic, Typography } from 'antd'
import { useT } from '@/i18n'
import type { SessionInfo } from '@/lib/session'
import { formatTime, toMillis } from '@/lib/time'
import { Page } from '@/components/Page'
import { RoleTag } from '@/components/RoleTag'
import { ErrorState } from '@/components/ErrorState'
import { dashKeys, getModuleCounts, getRecent } from './api'
import { shortcuts } from './shortcuts'

function Recent() {
  const t = useT()
  const q = useQuery({ queryKey: dashKeys.recent, queryFn: getRecent })
  return (
    <Card title={t('dash.recent')} extra={<Link to="/audit">{t('dash.recentAll')}</Link>} data-testid="dash-recent">
      {q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <List
          loading={q.isPending}
          dataSource={q.data?.list ?? []}
          locale={{ emptyText: t('audit.empty') }}
          renderItem={(r) => (
            <List.Item>
              <List.Item.Meta
                title={
                  <>
                    <Typography.Text code>{r.action}</Typography.Text> {r.target}
                  </>
                }
                description={`${formatTime(r.at)} · ${r.actor === 0 ? t('common.shell') : r.actorAccount || `uid ${r.actor}`}`}
              />
            </List.Item>
          )}
        />
      )}
    </Card>
  )
}

function Content() {
  const t = useT()
  const q = useQuery({ queryKey: dashKeys.modules, queryFn: getModuleCounts })
  const mods = q.data ?? []
  const sum = (f: (m: (typeof mods)[number]) => number) => mods.reduce((a, m) => a + f(m), 0)
  return (
    <Card title={t('dash.content')} extra={<Link to="/content/videos">{t('nav.content.videos')}</Link>} data-testid="dash-content" loading={q.isPending}>
      {q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <div className="grid-stats">
          <Statistic title={t('dash.modules')} value={mods.length} />
          <Statistic title={t('dash.subModules')} value={sum((m) => m.subModules?.length ?? 0)} />
          <Statistic title={t('dash.videos')} value={sum((m) => m.videoCount)} />
          <Statistic title={t('dash.published')} value={sum((m) => m.publishedCount)} />
        </div>
      )}
    </Card>
  )
}

export function DashboardPage() {
  const t = useT()
  const s = useOutletContext<SessionInfo>()
  const stepUp = toMillis(s.stepUpUntil)
  return (
    <Page title={t('dash.welcome', { name: s.name || s.account })}>
      <div className="stack">
        <Card title={t('dash.session')} data-testid="dash-session">
          <Descriptions column={{ xs: 1, md: 2 }} size="small">
            <Descriptions.Item label={t('header.account')}>{s.account}</Descriptions.Item>
            <Descriptions.Item label={t('dash.role')}>
              <RoleTag role={s.role} />
            </Descriptions.Item>
            <Descriptions.Item label={t('dash.idle')}>{formatTime(s.idleExpiresAt)}</Descriptions.Item>
            <Descriptions.Item label={t('dash.ends')}>{formatTime(s.expiresAt)}</Descriptions.Item>
            <Descriptions.Item label={t('dash.stepUp')}>{stepUp !== null && stepUp > Date.now() ? formatTime(stepUp) : t('dash.stepUpNone')}</Descriptions.Item>
          </Descriptions>
        </Card>
        <Card title={t('dash.sections')}>
          <div className="grid-cards">
            {shortcuts(s.sections, s.role).map((e) => (
              <Link key={e.path} to={e.path} className="shortcut" data-testid={`shortcut-${e.path}`}>
                <Typography.Text strong>{t(e.label)}</Typography.Text>
                <Typography.Text type="secondary">{t(e.hint)}</Typography.Text>
              </Link>
            ))}
          </div>
        </Card>
        {s.sections.includes('audit') ? <Recent /> : null}
        {s.sections.includes('content') ? <Content /> : null}
      </div>
    </Page>
  )
}
