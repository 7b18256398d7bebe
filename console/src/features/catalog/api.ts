// The content section's catalogue calls (docs/api.md *Operator content*,
// *Support and information*, *Delivery lines and error reports*): tags,
// galleries, announcements, ads, pre-sale banners, the remote configuration
// (vid/source) with its FAQ and groups, delivery lines and app clicks.
import { api } from '@/lib/client'

export interface KeysetPage<T> {
  list: T[]
  nextCursor: string | null
}

// Tags.
export interface AdminTag {
  id: number
  name: string
  sort: number
  videoCount: number
}
export const getTags = () => api.get<AdminTag[]>('/api/admin/tags')
export const createTag = (name: string, sort: number) => api.post<AdminTag>('/api/admin/tags', { name, sort })
export const updateTag = (id: number, name: string, sort: number) => api.post<AdminTag>('/api/admin/tags/update', { id, name, sort })
export const deleteTag = (id: number) => api.post<{ id: number; untaggedVideos: number }>('/api/admin/tags/delete', { id })

// Galleries.
export interface Gallery {
  id: number
  title: string
  cover: string
  moduleID: number
  subModuleID: number
  vipLevel: number
  coins: number
  imageCount: number
  published: boolean
  createdAt: string
}
export interface GalleryFilters {
  published?: 0 | 1
  title?: string
}
export const GALLERY_PAGE = 20
export const getGalleries = (f: GalleryFilters, cursor?: string) =>
  api.get<KeysetPage<Gallery>>('/api/admin/galleries', { published: f.published, title: f.title, cursor, limit: GALLERY_PAGE })
export const publishGallery = (id: number, published: boolean) => api.post<Gallery>('/api/admin/galleries/publish', { id, published })
export const updateGallery = (id: number, v: { title: string; vipLevel: number; coins: number; subModuleID?: number }) => api.post<Gallery>('/api/admin/galleries/update', { id, ...v })
// A new gallery: its pictures are uploaded asset ids, in order (the first
// is the cover); subModuleID is a sub-module of an images module.
export interface NewGallery {
  title: string
  subModuleID: number
  vipLevel: number
  coins: number
  images: number[]
}
export const createGallery = (g: NewGallery) => api.post<Gallery>('/api/admin/galleries', g)
export const setGalleryImages = (id: number, images: number[]) => api.post<Gallery>('/api/admin/galleries/images', { id, images })
export interface GalleryImage {
  position: number
  assetId: number
  width: number
  height: number
  thumb?: string
}
export interface GalleryDetail extends Gallery {
  images: GalleryImage[]
}
export const getGallery = (id: number) => api.get<GalleryDetail>('/api/admin/galleries/info', { id })
// The images modules (module_type 3) and their sub-modules, where a
// gallery is filed.
export interface ImageModule {
  id: number
  name: string
  moduleType: number
  subModules?: ImageModule[]
}
export const getImageModules = () => api.get<ImageModule[]>('/api/admin/modules').then((l) => l.filter((m) => m.moduleType === 3))

// Announcements, ads and pre-sale banners share a showing window (unix
// seconds; endsAt 0: no end) and a state computed by the server.
export type WindowState = 'scheduled' | 'showing' | 'ended'
export interface Announcement {
  id: number
  title: string
  content: string
  link: string
  sort: number
  startsAt: number
  endsAt: number
  state: WindowState
  createdAt: number
}
export type AnnouncementInput = Omit<Announcement, 'id' | 'state' | 'createdAt'> & { id?: number }
export const getAnnouncements = (cursor?: string) => api.get<KeysetPage<Announcement>>('/api/admin/announcements', { cursor })
export const saveAnnouncement = (a: AnnouncementInput) => api.post<Announcement>('/api/admin/announcements', a)
export const deleteAnnouncement = (id: number) => api.post<{ id: number }>('/api/admin/announcements/delete', { id })

export const AD_POSITIONS = ['home_banner', 'splash', 'popup'] as const
export type AdPosition = (typeof AD_POSITIONS)[number]
export interface Ad {
  id: number
  title: string
  image: string
  link: string
  position: AdPosition
  sort: number
  startsAt: number
  endsAt: number
  state: WindowState
  clicks: { today: number; days7: number; total: number }
  createdAt: number
}
// pictureId: an uploaded picture the server publishes as the image
// (image is then ignored).
export type AdInput = Omit<Ad, 'id' | 'state' | 'clicks' | 'createdAt'> & { id?: number; pictureId?: number }
export const getAds = (position: AdPosition | undefined, cursor?: string) => api.get<KeysetPage<Ad>>('/api/admin/ads', { position, cursor })
export const saveAd = (a: AdInput) => api.post<Ad>('/api/admin/ads', a)
export const deleteAd = (id: number) => api.post<{ id: number }>('/api/admin/ads/delete', { id })

export interface PreSale {
  id: number
  type: 1 | 2 | 3
  status: 1 | 2
  url: string
  sort: number
}
export type PreSaleInput = Omit<PreSale, 'id'> & { id?: number; pictureId?: number }
export const getPreSales = () => api.get<{ list: PreSale[]; max: number }>('/api/admin/presale')
export const savePreSale = (p: PreSaleInput) => api.post<PreSale>('/api/admin/presale', p)
export const deletePreSale = (id: number) => api.post<{ id: number }>('/api/admin/presale/delete', { id })

// The remote configuration: every key's list (POST needs step-up).
export interface SourceEntry {
  id: number
  title: string
  url: string
  weight: number
  icon?: string
  desc?: string
}
export interface SourceEntryInput {
  id?: number
  title: string
  url: string
  weight: number
  icon: string
  desc: string
}
export interface SourceKey {
  key: string
  entries: SourceEntry[]
}
export const getSource = (key?: string) => api.get<SourceKey[]>('/api/admin/source', { key })
export const setSource = (key: string, entries: SourceEntryInput[]) => api.post<SourceKey>('/api/admin/source', { key, entries })

// Delivery lines (POST needs step-up) and what the server knows of their
// health: the lines phones reported failing in the last 24 hours.
export interface Lines {
  api: string[]
  image: string[]
  video: string[]
  fallback: string[]
}
export interface FailingLine {
  line: string
  reports: number
  lastReason: string
  lastAt: string
}
export const getLines = () => api.get<Lines>('/api/admin/lines')
export const setLines = (l: Lines) => api.post<Lines>('/api/admin/lines', l)
export const getFailingLines = () => api.get<{ failingLines: FailingLine[] }>('/api/admin/reports', { kind: 'line', pageSize: 1 }).then((r) => r.failingLines ?? [])

// The application centre's clicks per app and day.
export interface AppClicks {
  id: number
  title: string
  day: string
  clicks: number
}
export const getAppClicks = (days: number) => api.get<{ days: number; since: string; list: AppClicks[] }>('/api/admin/apps/clicks', { days })

export const catalogKeys = {
  all: ['catalog'] as const,
  tags: ['catalog', 'tags'] as const,
  galleries: (f: GalleryFilters, cursor?: string) => ['catalog', 'galleries', f, cursor ?? ''] as const,
  gallery: (id: number) => ['catalog', 'gallery', id] as const,
  imageModules: ['catalog', 'imageModules'] as const,
  announcements: (cursor?: string) => ['catalog', 'announcements', cursor ?? ''] as const,
  ads: (position: string | undefined, cursor?: string) => ['catalog', 'ads', position ?? '', cursor ?? ''] as const,
  presale: ['catalog', 'presale'] as const,
  source: ['catalog', 'source'] as const,
  lines: ['catalog', 'lines'] as const,
  health: ['catalog', 'lines', 'health'] as const,
  appClicks: (days: number) => ['catalog', 'apps', days] as const,
}
