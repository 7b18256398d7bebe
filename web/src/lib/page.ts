// One page of a paged list, the shape every paged call answers with
// (DESIGN "API conventions": pageNumber and pageSize in, hasMore out).

export interface Page<T> {
  list: T[]
  total: number
  pageNumber: number
  pageSize: number
  hasMore: boolean
}

// nextPage is getNextPageParam for every paged list.
export function nextPage<T>(last: Page<T>): number | undefined {
  return last.hasMore ? last.pageNumber + 1 : undefined
}
