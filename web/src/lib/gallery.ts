// The gallery shape every list of galleries shares (the gallery pages, the
// favourites under Mine): docs/api.md, *Galleries*.
export interface Gallery {
  id: number
  title: string
  cover: string
  coverWebp?: string
  coverPlaceholder: string
  coverWidth: number
  coverHeight: number
  moduleID: number
  subModuleID: number
  vipLevel: 0 | 1 | 2
  coins: number
  imageCount: number
  createdAt: string
}
