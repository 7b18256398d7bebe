// A table over one query: the loading state while the first answer is on
// its way (and a spinner while a new page loads), the empty state with words
// that say what is empty, and the error state with a retry in place of the
// rows. Paging is the page's own (no client-side totals): see Pager.
import { Empty, Table, type TableProps } from 'antd'
import { ErrorState } from './ErrorState'

export interface QueryState {
  isPending: boolean
  isFetching: boolean
  isError: boolean
  error: unknown
  refetch: () => unknown
}

type Props<T> = Omit<TableProps<T>, 'loading' | 'pagination'> & {
  query: QueryState
  empty: string
}

export function QueryTable<T extends object>({ query, empty, ...table }: Props<T>) {
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />
  return (
    <Table<T>
      size="middle"
      scroll={{ x: 'max-content' }}
      {...table}
      loading={query.isPending || query.isFetching}
      pagination={false}
      locale={{ emptyText: query.isPending ? <span /> : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} /> }}
    />
  )
}
