import { describe, expect, it, vi } from 'vitest'

vi.mock('./toast', () => ({ toast: { text: vi.fn() } }))
const { ApiError } = await import('./api')
const { isChunkLoadError, isOfflineError } = await import('./network')

const err = (kind: 'network' | 'timeout' | 'http', status = 0) => new ApiError({ kind, code: status, status, tip: 'x', msg: '' })

describe('isOfflineError', () => {
  it('is true for a request that got no answer', () => {
    expect(isOfflineError(err('network'), true)).toBe(true)
  })

  it('is false for an answer from the server or a timeout while online', () => {
    expect(isOfflineError(err('http', 500), true)).toBe(false)
    expect(isOfflineError(err('timeout'), true)).toBe(false)
    expect(isOfflineError(new Error('boom'), true)).toBe(false)
  })

  it('is true for anything while the browser says it is offline', () => {
    expect(isOfflineError(err('http', 500), false)).toBe(true)
    expect(isOfflineError(null, false)).toBe(true)
  })

  it('counts a failed page download as a network failure', () => {
    expect(isOfflineError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'), true)).toBe(true)
    expect(isOfflineError(new Error('Unable to preload CSS for http://h/assets/Picture-x.css'), true)).toBe(true)
  })
})

describe('isChunkLoadError', () => {
  it('recognises the browsers’ messages for a failed dynamic import', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /a.js'))).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    // Vite's loader, when a page's stylesheet could not be fetched.
    expect(isChunkLoadError(new Error('Unable to preload CSS for http://h/assets/Picture-x.css'))).toBe(true)
    expect(isChunkLoadError(new Error('Cannot read properties of undefined'))).toBe(false)
  })
})
