// 运维 → 备份 (owner): where scheduled backups go, how often and how many are
// kept; the finished backups there, newest first; the backup job's latest
// runs with their errors; 立即备份 (step-up) queues one now. Restoring is a
// shell command on a new install (docs/deploy.md), shown, not run, here.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Alert, App, Button, Descriptions, Space, Table, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { errorTip } from '@/components/ErrorState'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { formatTime } from '@/lib/time'
import { backupKeys, bytes, every, getBackups, runBackup, type BackupRun, type BackupSummary, type RunState } from './api'

const stateColor: Record<RunState, string> = { available: 'blue', retryable: 'orange', running: 'processing', succeeded: 'green', dead: 'red' }

export function BackupsPage() {
  const t = useT()
  const qc = useQueryClient()
  const { message } = App.useApp()
  const q = useQuery({ queryKey: backupKeys.page, queryFn: getBackups, refetchInterval: 15_000 })
  const run = useMutation({
    mutationFn: runBackup,
    onSuccess: (r) => {
      void message.success(t(r.queued ? 'backups.queued' : 'backups.already'))
      void qc.invalidateQueries({ queryKey: backupKeys.page })
    },
    onError: (e) => void message.error(errorTip(e, t)),
  })
  const d = q.data
  const period = d ? every(d.everySeconds) : null
  return (
    <Page
      title={t('backups.title')}
      extra={
        <Button type="primary" onClick={() => run.mutate()} loading={run.isPending} disabled={!d?.configured} data-testid="backup-now">
          {t('backups.now')}
        </Button>
      }
    >
      {d && !d.configured ? <Alert type="warning" showIcon className="backups-alert" message={t('backups.off')} description={t('backups.offHint')} /> : null}
      {d?.listError ? <Alert type="error" showIcon className="backups-alert" message={t('backups.listError')} description={d.listError} /> : null}
      {d?.configured && period ? (
        <Descriptions size="small" column={{ xs: 1, sm: 3 }} className="backups-settings" data-testid="backup-settings">
          <Descriptions.Item label={t('backups.place')}>
            <Typography.Text className="mono" copyable>
              {d.place}
            </Typography.Text>
          </Descriptions.Item>
          <Descriptions.Item label={t('backups.every')}>{t(`backups.every.${period.unit}` as MessageKey, { n: period.n })}</Descriptions.Item>
          <Descriptions.Item label={t('backups.keep')}>{t('backups.keepN', { n: d.keep })}</Descriptions.Item>
        </Descriptions>
      ) : null}
      <Typography.Title level={5}>{t('backups.list')}</Typography.Title>
      <QueryTable<BackupSummary>
        query={q}
        empty={t(d?.configured === false ? 'backups.off' : 'backups.empty')}
        rowKey="name"
        dataSource={d?.backups}
        data-testid="backups-table"
        columns={[
          {
            title: t('backups.name'),
            key: 'name',
            render: (_, b) => (
              <Space direction="vertical" size={0}>
                <span className="mono">{b.name}</span>
                {b.error ? <Typography.Text type="danger">{b.error}</Typography.Text> : <Typography.Text type="secondary">{formatTime(b.createdAt)}</Typography.Text>}
              </Space>
            ),
          },
          { title: t('backups.database'), key: 'db', render: (_, b) => (b.error ? '—' : `${b.engine} · ${bytes(b.databaseBytes)}`) },
          { title: t('backups.media'), key: 'media', render: (_, b) => (b.error ? '—' : t('backups.mediaN', { n: b.mediaCount, size: bytes(b.mediaBytes) })), responsive: ['sm'] },
          { title: t('backups.schema'), dataIndex: 'schema', responsive: ['md'], render: (s: string) => <span className="mono">{s}</span> },
        ]}
      />
      <Typography.Paragraph type="secondary" className="backups-restore">
        {t('backups.restoreHint')} <Typography.Text code copyable>{`prima restore -from ${d?.place || 'DIR'}`}</Typography.Text>
      </Typography.Paragraph>
      <Typography.Title level={5}>{t('backups.runs')}</Typography.Title>
      <Table<BackupRun>
        size="small"
        rowKey="id"
        dataSource={d?.runs ?? []}
        loading={q.isLoading}
        pagination={false}
        locale={{ emptyText: t('backups.noRuns') }}
        data-testid="backup-runs"
        columns={[
          { title: t('backups.runAt'), dataIndex: 'runAt', render: (v: BackupRun['runAt']) => formatTime(v) },
          { title: t('backups.state'), dataIndex: 'state', render: (s: RunState) => <Tag color={stateColor[s]}>{t(`backups.state.${s}` as MessageKey)}</Tag> },
          { title: t('backups.finishedAt'), dataIndex: 'finishedAt', responsive: ['sm'], render: (v: BackupRun['finishedAt']) => (v ? formatTime(v) : '—') },
          { title: t('backups.error'), dataIndex: 'lastError', render: (e: string) => (e ? <Typography.Text type="danger">{e}</Typography.Text> : '—') },
        ]}
      />
    </Page>
  )
}
