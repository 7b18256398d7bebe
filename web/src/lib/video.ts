// The video and paged-list shapes every feature that lists videos shares
// (catalog's feeds, the detail page's related list, the mine lists).

export interface Video {
  id: number
  title: string
  cover: string
  duration: number
  playCount: number
  likeCount: number
  tags: string[]
  vipLevel: 0 | 1 | 2
  coins: number
  moduleID: number
  subModuleID: number
  createdAt: string
}

export interface Paged<T> {
  list: T[]
  total: number
  pageNumber: number
  pageSize: number
  hasMore: boolean
}

// nextPage is getNextPageParam for every paged list.
export function nextPage<T>(last: Paged<T>): number | undefined {
  return last.hasMore ? last.pageNumber + 1 : undefined
}
