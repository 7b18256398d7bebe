// Gallery shapes as the server sends them (docs/api.md "Galleries").
import type { PaywallInfo } from '@/components/Paywall'

import type { Gallery } from '@/lib/gallery'
export type { Gallery } from '@/lib/gallery'

export interface GalleryImage {
  position: number
  assetId: number
  width: number
  height: number
  placeholder: string
  locked: boolean
  thumb?: string
  display?: string
  thumbWebp?: string
  displayWebp?: string
}

export interface GalleryDetail extends Gallery {
  isCollect: boolean
  access: { allowed: boolean; reason: string; unlock?: unknown }
  paywall: PaywallInfo | null
  images: GalleryImage[]
  expiresAt: string
}

// The images module's categories (modules/list?moduleType=3).
export interface ImageSubModule {
  id: number
  moduleName: string
}
export interface ImageModule {
  moduleID: number
  moduleName: string
  subModules: ImageSubModule[]
}
