// Catalog shapes as the server sends them (api-contract "Catalog").

// Module types: 0 home, 1 community, 2 dark, 3 image, 4 short video.
export type ModuleType = 0 | 1 | 2 | 3 | 4

export interface SubModule {
  id: number
  moduleName: string
  moduleType: ModuleType
  pid: number
  sort: number
}

export interface Module {
  moduleID: number
  moduleName: string
  moduleType: ModuleType
  sort: number
  subModules: SubModule[]
}

export interface Announcement {
  id: number
  title: string
  content: string
  link: string
}

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

export interface Section {
  id: number // the sub-module id
  moduleName: string
  moduleID: number
  videos: Video[]
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
