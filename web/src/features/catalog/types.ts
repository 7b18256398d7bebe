// Catalog shapes as the server sends them (api-contract "Catalog"). The
// video shape is shared with other features (src/lib/video), the page of a
// paged list with every caller (src/lib/api).
import type { Video } from '@/lib/video'
export type { Video } from '@/lib/video'

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

export interface Section {
  id: number // the sub-module id
  moduleName: string
  moduleID: number
  videos: Video[]
}

