import { describe, expect, it } from 'vitest'
import { formatBytes, MAX_VIDEO_BYTES, percent, pollInterval, precheck } from './rules'

const f = (name: string, size: number, type = '') => ({ name, size, type })

describe('precheck', () => {
  it('takes videos by type, or by name when the browser gives no type', () => {
    expect(precheck(f('a.mp4', 10, 'video/mp4'))).toBeNull()
    expect(precheck(f('clip', 10, 'video/quicktime'))).toBeNull()
    expect(precheck(f('a.MOV', 10))).toBeNull()
    expect(precheck(f('a.webm', 10))).toBeNull()
  })

  it('refuses other types, empty files and files over the limit', () => {
    expect(precheck(f('a.jpg', 10, 'image/jpeg'))).toBe('upload.err.type')
    expect(precheck(f('a.exe', 10, 'application/x-msdownload'))).toBe('upload.err.type')
    expect(precheck(f('a.mp4.txt', 10))).toBe('upload.err.type')
    expect(precheck(f('a', 10))).toBe('upload.err.type')
    expect(precheck(f('a.mp4', 0, 'video/mp4'))).toBe('upload.err.empty')
    expect(precheck(f('a.mp4', MAX_VIDEO_BYTES, 'video/mp4'))).toBeNull()
    expect(precheck(f('a.mp4', MAX_VIDEO_BYTES + 1, 'video/mp4'))).toBe('upload.err.tooLarge')
  })
})

describe('progress', () => {
  it('is a whole percentage, never over 100 and 0 while the total is unknown', () => {
    expect(percent(0, 100)).toBe(0)
    expect(percent(1, 3)).toBe(33)
    expect(percent(999, 1000)).toBe(99)
    expect(percent(1000, 1000)).toBe(100)
    expect(percent(1200, 1000)).toBe(100)
    expect(percent(5, 0)).toBe(0)
    expect(percent(NaN, 10)).toBe(0)
  })

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(5 * 1024 * 1024)).toBe('5.0 MB')
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB')
    expect(formatBytes(-1)).toBe('0 B')
  })

  it('polls only while processing', () => {
    expect(pollInterval('processing')).toBe(2000)
    expect(pollInterval('ready')).toBe(false)
    expect(pollInterval('failed')).toBe(false)
    expect(pollInterval(undefined)).toBe(false)
  })
})

describe('retryable', () => {
  it('retries the network, timeouts and server faults, not refusals of the file', async () => {
    const { retryable } = await import('./rules')
    expect(retryable({ kind: 'network', status: 0 })).toBe(true)
    expect(retryable({ kind: 'timeout', status: 0 })).toBe(true)
    expect(retryable({ kind: 'http', status: 502 })).toBe(true)
    expect(retryable({ kind: 'http', status: 429 })).toBe(true)
    for (const s of [400, 401, 413, 415, 422]) expect(retryable({ kind: 'http', status: s }), String(s)).toBe(false)
  })
})
