// An infinite list of record lines (withdrawals, bills, orders): the first
// page's loading, error (or offline) with retry, the empty state, then the
// lines and more as the user scrolls.
import type { ReactNode } from 'react'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import type { PagedQuery } from '@/components/PagedGrid'
import styles from './ui.module.css'

export function RecordList<T>({ q, empty, item, testid }: { q: PagedQuery<T>; empty: string; item: (x: T) => ReactNode; testid: string }) {
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0) return <StateView kind="empty" title={empty} />
  return (
    <>
      <ul className={styles.records} data-testid={testid}>
        {items.map(item)}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
