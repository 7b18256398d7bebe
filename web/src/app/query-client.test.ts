import { describe, expect, it, vi } from 'vitest'
import { QueryObserver } from '@tanstack/react-query'

vi.mock('@/lib/toast', () => ({ toast: { text: vi.fn() } }))
const { ApiError } = await import('@/lib/api')
const { createQueryClient, retryOnReconnect, shouldRetry } = await import('./query-client')

const err = (kind: 'network' | 'timeout' | 'http' | 'business', status = 0) => new ApiError({ kind, code: status, status, tip: 'x', msg: '' })

describe('shouldRetry', () => {
  it('retries no answer and a 5xx twice, a timeout once', () => {
    expect([0, 1, 2].map((n) => shouldRetry(n, err('network'), true))).toEqual([true, true, false])
    expect([0, 1, 2].map((n) => shouldRetry(n, err('http', 503), true))).toEqual([true, true, false])
    expect([0, 1].map((n) => shouldRetry(n, err('timeout'), true))).toEqual([true, false])
  })

  it('never retries a 4xx, a business error or a non-API error', () => {
    expect(shouldRetry(0, err('http', 404), true)).toBe(false)
    expect(shouldRetry(0, err('business', 422), true)).toBe(false)
    expect(shouldRetry(0, new Error('render'), true)).toBe(false)
  })

  it('does not retry while offline: the page shows its offline state at once', () => {
    expect(shouldRetry(0, err('network'), false)).toBe(false)
  })
})

describe('retryOnReconnect', () => {
  it('fetches the failed queries on screen again when the connection returns', async () => {
    const client = createQueryClient()
    let up = false
    const fn = vi.fn(async () => {
      if (!up) throw err('http', 404) // not retried, fails at once
      return 'ok'
    })
    const observer = new QueryObserver(client, { queryKey: ['x'], queryFn: fn })
    const unsubscribe = observer.subscribe(() => {})
    await vi.waitFor(() => expect(observer.getCurrentResult().status).toBe('error'))
    let fire = () => {}
    const stop = retryOnReconnect(client, (f) => ((fire = f), () => {}))
    up = true
    fire()
    await vi.waitFor(() => expect(observer.getCurrentResult().data).toBe('ok'))
    expect(fn).toHaveBeenCalledTimes(2)
    stop()
    unsubscribe()
  })
})
