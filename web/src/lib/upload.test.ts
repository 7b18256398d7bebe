import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { setToken } from './storage'
import { MemoryStorage } from './testing'
import { uploadFile, UploadCancelled, type XHRLike } from './upload'

class FakeXHR implements XHRLike {
  method = ''
  url = ''
  headers: Record<string, string> = {}
  body: FormData | null = null
  timeout = 0
  status = 0
  statusText = ''
  responseText = ''
  upload: XHRLike['upload'] = { onprogress: null }
  onload: (() => void) | null = null
  onerror: (() => void) | null = null
  ontimeout: (() => void) | null = null
  onabort: (() => void) | null = null
  open(method: string, url: string) {
    this.method = method
    this.url = url
  }
  setRequestHeader(k: string, v: string) {
    this.headers[k] = v
  }
  send(body: FormData) {
    this.body = body
  }
  abort() {
    this.onabort?.()
  }
  answer(status: number, body: unknown) {
    this.status = status
    this.responseText = typeof body === 'string' ? body : JSON.stringify(body)
    this.onload?.()
  }
}

function start(file = new Blob(['abc'], { type: 'video/mp4' })) {
  const x = new FakeXHR()
  const seen: [number, number][] = []
  const h = uploadFile<{ id: number }>('/api/app/vid/uploadStatic', file, { xhr: () => x, onProgress: (a, b) => seen.push([a, b]) })
  return { x, h, seen }
}

beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()))
afterEach(() => vi.unstubAllGlobals())

describe('uploadFile', () => {
  it('posts the file in the field "file" with the app headers and reports progress', async () => {
    setToken('tok123')
    const { x, h, seen } = start()
    expect(x.method).toBe('POST')
    expect(x.url).toBe('/api/app/vid/uploadStatic')
    expect(x.headers.Authorization).toBe('Bearer tok123')
    expect(x.headers['X-App-Client']).toMatch(/h5=1/)
    expect(x.headers['Content-Type']).toBeUndefined() // the browser adds the boundary
    expect((x.body?.get('file') as Blob).size).toBe(3)
    x.upload.onprogress?.({ loaded: 1, total: 3, lengthComputable: true })
    x.upload.onprogress?.({ loaded: 2, total: 0, lengthComputable: false })
    expect(seen).toEqual([
      [1, 3],
      [2, 3],
    ])
    x.answer(200, { code: 200, data: { id: 7 } })
    await expect(h.promise).resolves.toEqual({ id: 7 })
  })

  it("rejects with the server's tip", async () => {
    const { x, h } = start()
    x.answer(413, { code: 413, tip: '文件太大', msg: 'over' })
    const err = await h.promise.catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 413, tip: '文件太大', kind: 'http' })
  })

  it('tells cancel, network failure and timeout apart', async () => {
    const a = start()
    a.h.abort()
    await expect(a.h.promise).rejects.toBeInstanceOf(UploadCancelled)
    const b = start()
    b.x.onerror?.()
    await expect(b.h.promise).rejects.toMatchObject({ kind: 'network' })
    const c = start()
    c.x.ontimeout?.()
    await expect(c.h.promise).rejects.toMatchObject({ kind: 'timeout' })
  })

  it('refuses an answer that is not an envelope', async () => {
    const { x, h } = start()
    x.answer(200, '<html>')
    await expect(h.promise).rejects.toMatchObject({ kind: 'parse' })
  })
})
