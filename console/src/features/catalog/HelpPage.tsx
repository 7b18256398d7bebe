// 内容 → 帮助与群组: the FAQ (help articles: a question and its answer) and
// GROUP (official groups: a name and a link), the two remote-configuration
// keys the phone app's help page (/mine/help) shows, on one friendlier
// page. Same call as the remote configuration (step-up to save).
import { useQuery } from '@tanstack/react-query'
import { Spin, Tabs } from 'antd'
import { useT } from '@/i18n'
import { Page } from '@/components/Page'
import { ErrorState } from '@/components/ErrorState'
import { catalogKeys, getSource } from './api'
import { EntriesEditor } from './EntriesEditor'

const EMPTY: never[] = []

export function HelpPage() {
  const t = useT()
  const q = useQuery({ queryKey: catalogKeys.source, queryFn: () => getSource() })
  const of = (k: string) => q.data?.find((s) => s.key === k)?.entries ?? EMPTY
  return (
    <Page title={t('catalog.help')}>
      {q.isPending ? (
        <Spin />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : (
        <Tabs
          items={[
            { key: 'FAQ', label: t('catalog.help.faq'), children: <EntriesEditor sourceKey="FAQ" entries={of('FAQ')} /> },
            { key: 'GROUP', label: t('catalog.help.groups'), children: <EntriesEditor sourceKey="GROUP" entries={of('GROUP')} /> },
          ]}
        />
      )}
    </Page>
  )
}
