// 内容 → 远程配置: every key of the remote configuration (GET/POST
// /api/admin/source; the phone app reads them from GET /api/app/vid/source)
// as a form, one key at a time, with what the app does with it.
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Select, Spin } from 'antd'
import { useT, type MessageKey } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { catalogKeys, getSource } from './api'
import { SOURCE_KEYS } from './validate'
import { EntriesEditor } from './EntriesEditor'

const EMPTY: never[] = []

export function SourcePage() {
  const t = useT()
  const [key, setKey] = useState<string>('APPNAME')
  const q = useQuery({ queryKey: catalogKeys.source, queryFn: () => getSource() })
  const entries = q.data?.find((k) => k.key === key)?.entries ?? EMPTY
  return (
    <Page title={t('catalog.source')}>
      <div className="filters">
        <Select
          className="catalog-key-select"
          value={key}
          onChange={setKey}
          showSearch
          optionFilterProp="label"
          options={SOURCE_KEYS.map((k) => ({ value: k, label: `${k} · ${t(`catalog.key.${k}` as MessageKey)} (${q.data?.find((s) => s.key === k)?.entries.length ?? 0})` }))}
          data-testid="source-key"
        />
      </div>
      {q.isPending ? <Spin /> : q.isError ? <ErrorState error={q.error} onRetry={() => void q.refetch()} /> : <EntriesEditor sourceKey={key} entries={entries} />}
    </Page>
  )
}
