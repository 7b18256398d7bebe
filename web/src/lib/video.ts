// The video shape every feature that lists videos shares
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
