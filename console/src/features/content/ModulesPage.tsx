// 内容 → 模块: the module tree with each one's type, order and counts.
import { useQuery } from '@tanstack/react-query'
import { Typography } from 'antd'
import { useT } from '@/i18n'
import { formatTime } from '@/lib/time'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { contentKeys, getModules, type AdminModule } from './api'
import { typeLabel } from './labels'

export function ModulesPage() {
  const t = useT()
  const q = useQuery({ queryKey: contentKeys.modules, queryFn: getModules })
  return (
    <Page title={t('content.modules')}>
      <QueryTable<AdminModule>
        query={q}
        empty={t('content.modulesEmpty')}
        rowKey="id"
        dataSource={q.data}
        expandable={{ childrenColumnName: 'subModules', defaultExpandAllRows: false }}
        data-testid="modules-table"
        columns={[
          { title: t('content.name'), dataIndex: 'name', render: (n: string) => <Typography.Text strong>{n}</Typography.Text> },
          { title: 'ID', dataIndex: 'id' },
          { title: t('content.type'), dataIndex: 'moduleType', render: (n: number) => { const k = typeLabel(n); return k ? t(k) : n } },
          { title: t('content.sort'), dataIndex: 'sort' },
          { title: t('content.videoCount'), dataIndex: 'videoCount' },
          { title: t('content.publishedCount'), dataIndex: 'publishedCount' },
          { title: t('content.createdAt'), dataIndex: 'createdAt', render: formatTime, responsive: ['md'] },
        ]}
      />
    </Page>
  )
}
