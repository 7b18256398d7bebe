// The body every paged grid shows (home's sub-module feed, the gallery
// lists, Mine's lists): skeletons while the first page loads, the error
// (or offline) state with retry, the empty state, then the cards and more
// as the user scrolls.
import type { ComponentType, ReactNode } from 'react'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'

// PagedQuery is what the grid reads of an infinite query of pages with a
// list each (TanStack's useInfiniteQuery result fits it).
export interface PagedQuery<T> {
  isPending: boolean
  isError: boolean
  error: unknown
  data?: { pages: { list: T[] }[] }
  hasNextPage: boolean
  isFetchingNextPage: boolean
  isFetchNextPageError: boolean
  refetch: () => unknown
  fetchNextPage: () => unknown
}

export function PagedGrid<T>({
  q,
  Grid,
  Skeleton,
  skeletons = 6,
  empty,
  item,
}: {
  q: PagedQuery<T>
  Grid: ComponentType<{ children: ReactNode }>
  Skeleton: ComponentType
  skeletons?: number
  empty: string
  item: (x: T, index: number) => ReactNode
}) {
  if (q.isPending) {
    return (
      <Grid>
        {Array.from({ length: skeletons }, (_, i) => (
          <Skeleton key={i} />
        ))}
      </Grid>
    )
  }
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0) return <StateView kind="empty" title={empty} />
  return (
    <>
      <Grid>{items.map(item)}</Grid>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
