// One audit entry: who, what, when, from where, its place in the hash
// chain, and the fields it changed, before and after.
import { Descriptions, Drawer, Empty, Grid, Table, Tag, Typography } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { diffFields, type FieldDiff } from '@/lib/diff'
import { formatTime } from '@/lib/time'
import type { AuditRow } from './api'

const changeColour = { added: 'green', removed: 'red', changed: 'gold', same: 'default' } as const

export function AuditDrawer({ row, onClose }: { row: AuditRow | null; onClose: () => void }) {
  const t = useT()
  const screens = Grid.useBreakpoint()
  const diff = row ? diffFields(row.before, row.after) : []
  return (
    <Drawer open={row !== null} onClose={onClose} title={t('audit.detail')} size={screens.md ? 640 : '100%'} destroyOnHidden data-testid="audit-drawer">
      {row ? (
        <div className="stack">
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label={t('audit.id')}>{row.id}</Descriptions.Item>
            <Descriptions.Item label={t('audit.time')}>{formatTime(row.at)}</Descriptions.Item>
            <Descriptions.Item label={t('audit.actor')}>{row.actor === 0 ? t('common.shell') : `${row.actorAccount || '—'} (uid ${row.actor})`}</Descriptions.Item>
            <Descriptions.Item label={t('audit.action')}>
              <Typography.Text code>{row.action}</Typography.Text>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.target')}>{row.target || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('audit.ip')}>{row.ip || '—'}</Descriptions.Item>
            <Descriptions.Item label={t('audit.hash')}>
              <span className="mono">{row.hash || '—'}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('audit.prevHash')}>
              <span className="mono">{row.prevHash || '—'}</span>
            </Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5}>{t('audit.diff')}</Typography.Title>
          {diff.length === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audit.noDiff')} />
          ) : (
            <Table<FieldDiff>
              size="small"
              rowKey="key"
              pagination={false}
              dataSource={diff}
              rowClassName={(d) => `diff-${d.change}`}
              scroll={{ x: 'max-content' }}
              data-testid="audit-diff"
              columns={[
                { title: t('audit.field'), dataIndex: 'key', render: (k: string, d) => <><Typography.Text code>{k}</Typography.Text> <Tag color={changeColour[d.change]}>{t(`audit.change.${d.change}` as MessageKey)}</Tag></> },
                { title: t('audit.before'), dataIndex: 'before', render: (v: string | null) => <pre className="diff-value">{v ?? '—'}</pre> },
                { title: t('audit.after'), dataIndex: 'after', render: (v: string | null) => <pre className="diff-value">{v ?? '—'}</pre> },
              ]}
            />
          )}
        </div>
      ) : null}
    </Drawer>
  )
}
