// What the publishing forms check before sending (the server checks again:
// internal/community/publish.go), drafts kept on the device, and the
// article editor's cleaning of pasted text.
import type { MessageKey } from '@/i18n'
import type { PostKind } from '@/features/community/types'
import { storage } from '@/lib/storage'

export const TITLE_MAX = 50
export const TEXT_MAX = 2000
export const ARTICLE_MAX = 20000
export const MAX_PICTURES = 9
// The server's picture limit (internal/media DefaultLimits.ImageBytes).
export const MAX_IMAGE_BYTES = 10 << 20
export const IMAGE_ACCEPT = 'image/jpeg,image/png,image/webp,image/gif,.jpg,.jpeg,.png,.webp,.gif'

// chars counts characters as the server does (code points, not UTF-16 units).
export function chars(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

const IMAGE_EXT = /\.(jpe?g|png|webp|gif|heic|heif)$/i

// imageProblem is why a picked file cannot be a post picture, or null. The
// server sniffs the bytes: a renamed file that is no picture is refused there.
export function imageProblem(file: { name: string; size: number; type: string }): MessageKey | null {
  const isImage = file.type ? file.type.startsWith('image/') : IMAGE_EXT.test(file.name)
  if (!isImage) return 'pub.notImage'
  if (file.size === 0) return 'pub.notImage'
  if (file.size > MAX_IMAGE_BYTES) return 'pub.tooBig'
  return null
}

// move returns list with the item at i moved by delta (clamped).
export function move<T>(list: readonly T[], i: number, delta: number): T[] {
  const j = i + delta
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return [...list]
  const out = [...list]
  const [x] = out.splice(i, 1)
  out.splice(j, 0, x)
  return out
}

// pictureProblem: why a picture post cannot be sent yet, or null.
export function pictureProblem(p: { text: string; title: string; uploaded: number; pending: number }): MessageKey | null {
  if (p.pending > 0) return 'pub.waitUploads'
  if (p.uploaded === 0) return 'pub.needPicture'
  if (chars(p.title.trim()) > TITLE_MAX) return 'pub.titleTooLong'
  if (chars(p.text.trim()) > TEXT_MAX) return 'pub.tooLong'
  return null
}

// articleProblem: why an article cannot be sent yet, or null.
export function articleProblem(a: { title: string; textLength: number; pictures: number }): MessageKey | null {
  const n = chars(a.title.trim())
  if (n < 2 || n > TITLE_MAX) return 'pub.articleTitleShort'
  if (a.textLength === 0 && a.pictures === 0) return 'pub.articleEmpty'
  if (a.textLength > ARTICLE_MAX) return 'pub.tooLong'
  return null
}

// safeLink accepts http(s) URLs only (the server drops any other href).
export function safeLink(s: string): string | null {
  const v = s.trim()
  if (!/^https?:\/\/[^\s]+$/i.test(v)) return null
  try {
    const u = new URL(v)
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null
  } catch {
    return null
  }
}

// pastedText is clipboard text as the editor inserts it: control
// characters other than line breaks and tabs dropped, \r\n folded.
export function pastedText(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
}

// newClientID names one publish attempt: a retry of the same form sends
// the same id, so a lost answer never makes two posts.
export function newClientID(): string {
  const c = globalThis.crypto
  if (c && 'randomUUID' in c) return c.randomUUID()
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`
}

// Drafts: one per kind on this device (localStorage through lib/storage),
// per user so a shared phone does not mix them.
export interface PictureDraft {
  title: string
  text: string
  pictures: { id: number; thumb: string }[]
  topicID: number
  moduleID: number
}
export interface VideoDraft {
  text: string
  assetID: number
  topicID: number
  moduleID: number
}
export interface ArticleDraft {
  title: string
  html: string
  topicID: number
  moduleID: number
}
type Drafts = { picture: PictureDraft; video: VideoDraft; article: ArticleDraft }

export function draftKey(kind: PostKind, uid: number): string {
  return `draft.${kind}.${uid}`
}

export function loadDraft<K extends PostKind>(kind: K, uid: number): Drafts[K] | null {
  return storage.get<Drafts[K]>(draftKey(kind, uid))
}

export function saveDraft<K extends PostKind>(kind: K, uid: number, d: Drafts[K]): void {
  storage.set(draftKey(kind, uid), d)
}

export function clearDraft(kind: PostKind, uid: number): void {
  storage.remove(draftKey(kind, uid))
}

// percent is the share sent, 0..100 (as the upload page shows it).
export function percent(sent: number, total: number): number {
  if (!(total > 0) || !(sent > 0)) return 0
  return Math.min(100, Math.floor((sent / total) * 100))
}

// UploadedAsset is the part of POST/GET /api/app/vid/uploadStatic's answer
// the forms read (features/upload has the whole shape).
export interface UploadedAsset {
  id: number
  kind: 'image' | 'video'
  state: 'processing' | 'ready' | 'failed'
  thumb?: string
  display?: string
  poster?: string
  error?: string
}
