// 内容 → 应用点击: the application centre's clicks (APPS entries of the
// remote configuration) per app and day, newest day first, over the last
// 1, 7, 30 or 90 days, with each app's total over the period.
import { useMemo, useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Segmented, Typography } from 'antd'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { QueryTable } from '@/components/QueryTable'
import { catalogKeys, getAppClicks, type AppClicks } from './api'

export interface AppTotal {
  id: number
  title: string
  clicks: number
}

// totalsOf sums each app's clicks over the days listed, most clicked first.
export function totalsOf(list: AppClicks[]): AppTotal[] {
  const m = new Map<number, AppTotal>()
  for (const c of list) {
    const a = m.get(c.id) ?? { id: c.id, title: c.title, clicks: 0 }
    a.clicks += c.clicks
    if (!a.title) a.title = c.title
    m.set(c.id, a)
  }
  return [...m.values()].sort((a, b) => b.clicks - a.clicks || a.id - b.id)
}

export function AppClicksPage() {
  const t = useT()
  const [days, setDays] = useState(7)
  const q = useQuery({ queryKey: catalogKeys.appClicks(days), queryFn: () => getAppClicks(days) })
  const totals = useMemo(() => totalsOf(q.data?.list ?? []), [q.data])
  const name = (title: string) => title || t('catalog.apps.removed')
  return (
    <Page title={t('catalog.apps')}>
      <div className="filters">
        <Segmented<number> value={days} onChange={setDays} options={[1, 7, 30, 90].map((d) => ({ value: d, label: t('catalog.apps.days', { n: d }) }))} data-testid="apps-days" />
      </div>
      <div className="stack">
        <Typography.Title level={5}>{t('catalog.apps.totals')}</Typography.Title>
        <QueryTable<AppTotal>
          query={q}
          empty={t('catalog.apps.empty')}
          rowKey="id"
          dataSource={totals}
          data-testid="apps-totals"
          columns={[
            { title: 'ID', dataIndex: 'id', responsive: ['sm'] },
            { title: t('catalog.apps.app'), dataIndex: 'title', render: name },
            { title: t('catalog.apps.clicks'), dataIndex: 'clicks' },
          ]}
        />
        <Typography.Title level={5}>{t('catalog.apps.byDay')}</Typography.Title>
        <QueryTable<AppClicks>
          query={q}
          empty={t('catalog.apps.empty')}
          rowKey={(c) => `${c.day}-${c.id}`}
          dataSource={q.data?.list}
          columns={[
            { title: t('catalog.apps.day'), dataIndex: 'day' },
            { title: t('catalog.apps.app'), dataIndex: 'title', render: name },
            { title: t('catalog.apps.clicks'), dataIndex: 'clicks' },
          ]}
        />
      </div>
    </Page>
  )
}
