// Uploads from the console: POST /api/admin/media/upload (content role,
// multipart, the phone app's upload handler) with progress, used by the
// videos editor (covers, video files) and the catalogue (ad and pre-sale
// pictures, gallery pictures). GET /api/admin/media?id=N reads an asset.
import { ApiError, unwrap } from '@/lib/api'
import { token } from '@/lib/session-store'
import type { Timestamp } from '@/lib/time'

export interface MediaView {
  id: number
  kind: 'image' | 'video'
  state: 'processing' | 'ready' | 'failed'
  durationMs: number
  width: number
  height: number
  error?: string
  thumb?: string
  createdAt: Timestamp
}

// uploadFile sends a file to POST /api/admin/media/upload (multipart, the
// field "file") with XMLHttpRequest, whose upload events give the
// progress fetch does not; onProgress gets 0..100. The answer is the
// asset (a video is "processing" until transcoded).
export function uploadFile(file: File, onProgress: (pct: number) => void, signal?: AbortSignal): Promise<MediaView> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', '/api/admin/media/upload')
    const tok = token()
    if (tok) xhr.setRequestHeader('Authorization', `Bearer ${tok}`)
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(uploadPercent(e.loaded, e.total))
    }
    xhr.onload = () => {
      try {
        resolve(unwrap<MediaView>(xhr.status, xhr.responseText))
      } catch (e) {
        reject(e)
      }
    }
    const fail = (msg: string) => reject(new ApiError({ status: 0, code: 0, tip: '网络连接失败，请检查网络后重试', msg, kind: 'network' }))
    xhr.onerror = () => fail('upload failed')
    xhr.onabort = () => fail('upload cancelled')
    signal?.addEventListener('abort', () => xhr.abort())
    const form = new FormData()
    form.append('file', file)
    xhr.send(form)
  })
}

// uploadPercent is the whole percent sent, 0..100 (100 only when all is).
export function uploadPercent(loaded: number, total: number): number {
  if (total <= 0) return 0
  if (loaded >= total) return 100
  return Math.min(99, Math.floor((loaded / total) * 100))
}

