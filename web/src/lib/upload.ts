// Uploads through XMLHttpRequest: fetch() cannot report how much of a
// request body has been sent, and a phone user sending 200 MB wants a
// progress bar and a cancel button. The request carries the same headers as
// every API call (lib/api.ts) and its answer is read the same way (unwrap),
// so errors are the same ApiError with the server's tip.
import { t } from '@/i18n'
import { ApiError, clientHeader, getBaseURL, unwrap } from './api'
import { getToken } from './storage'

// UPLOAD_TIMEOUT_MS matches the server's limit for one upload to arrive
// (internal/media UploadTimeout, 30 min).
export const UPLOAD_TIMEOUT_MS = 30 * 60_000

// XHRLike is the part of XMLHttpRequest an upload uses (a test passes a fake).
export interface XHRLike {
  open(method: string, url: string): void
  setRequestHeader(name: string, value: string): void
  send(body: FormData): void
  abort(): void
  timeout: number
  readonly status: number
  readonly statusText: string
  readonly responseText: string
  upload: { onprogress: ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null }
  onload: (() => void) | null
  onerror: (() => void) | null
  ontimeout: (() => void) | null
  onabort: (() => void) | null
}

// UploadCancelled is how a cancelled upload rejects: not an error to show.
export class UploadCancelled extends Error {
  constructor() {
    super('upload cancelled')
    this.name = 'UploadCancelled'
  }
}

export interface UploadHandle<T> {
  promise: Promise<T>
  // abort cancels the request; the promise rejects with UploadCancelled.
  abort: () => void
}

export interface UploadOptions {
  // field is the form field holding the file ("file" for uploadStatic).
  field?: string
  onProgress?: (sent: number, total: number) => void
  xhr?: () => XHRLike
}

// uploadFile POSTs file as multipart/form-data to path on the current API
// line. The browser sets the multipart Content-Type with its boundary.
export function uploadFile<T>(path: string, file: Blob, opts: UploadOptions = {}): UploadHandle<T> {
  const xhr = opts.xhr ? opts.xhr() : (new XMLHttpRequest() as unknown as XHRLike)
  const promise = new Promise<T>((resolve, reject) => {
    xhr.open('POST', getBaseURL() + path)
    xhr.timeout = UPLOAD_TIMEOUT_MS
    xhr.setRequestHeader('Accept', 'application/json')
    xhr.setRequestHeader('X-App-Client', clientHeader())
    const token = getToken()
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`)
    xhr.upload.onprogress = (e) => opts.onProgress?.(e.loaded, e.lengthComputable ? e.total : file.size)
    xhr.onload = () => {
      try {
        resolve(unwrap(xhr.status, xhr.statusText, xhr.responseText) as T)
      } catch (e) {
        reject(e)
      }
    }
    xhr.onerror = () => reject(new ApiError({ kind: 'network', code: 0, status: 0, tip: t('net.offline'), msg: 'upload: network error' }))
    xhr.ontimeout = () =>
      reject(new ApiError({ kind: 'timeout', code: 0, status: 0, tip: t('net.timeout'), msg: `upload: timeout after ${UPLOAD_TIMEOUT_MS} ms` }))
    xhr.onabort = () => reject(new UploadCancelled())
    const form = new FormData()
    form.append(opts.field ?? 'file', file)
    xhr.send(form)
  })
  return { promise, abort: () => xhr.abort() }
}
