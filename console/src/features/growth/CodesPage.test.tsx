// @vitest-environment happy-dom
// The codes page against a stubbed server: making a batch shows its codes
// once; closing before a download or copy asks first; 下载 CSV saves
// codes-batch-<id>.csv holding exactly those codes, after which closing
// asks nothing.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App } from 'antd'
import { saveSession } from '@/lib/session-store'
import { CodesPage } from './CodesPage'
import type { Batch } from './api'

const batch: Batch = { id: 9, name: '春节', reward: { coins: 7, vipLevel: 0, vipDays: 0, coupons: 0 }, count: 2, usesPerCode: 1, expiresAt: 0, disabledAt: 0, createdBy: 1, createdAt: 100, redeemed: 0, codesUsedUp: 0 }
const CODES = ['AAAA-BBBB-CCCC', 'DDDD-EEEE-FFFF']
let posts: unknown[]
let blobs: Blob[]
let names: string[]

beforeEach(() => {
  posts = []
  blobs = []
  names = []
  localStorage.clear()
  saveSession({ token: 'ct_1', expiresAt: '2999-01-01T00:00:00Z' })
  const json = (data: unknown) => new Response(JSON.stringify({ code: 200, data }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (init.method === 'POST') {
      posts.push(JSON.parse(String(init.body)))
      return json({ batch, codes: CODES })
    }
    expect(url).toContain('/api/admin/codes/batches')
    return json({ list: posts.length ? [batch] : [], pageSize: 20, hasMore: false, nextCursor: null })
  })
  vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
    blobs.push(b as Blob)
    return 'blob:codes'
  })
  vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {})
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download)
  })
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <CodesPage />
      </App>
    </QueryClientProvider>,
  )
})

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
  vi.unstubAllGlobals()
})

const click = (id: string) =>
  act(async () => {
    fireEvent.click(screen.getByTestId(id))
  })

describe('CodesPage', { timeout: 30_000 }, () => {
  it('shows the codes once, asks before closing unsaved, downloads them as the batch file', async () => {
    await screen.findByText('还没有兑换码批次')
    await click('codes-create')
    await act(async () => {
      fireEvent.change(screen.getByTestId('codes-name'), { target: { value: '春节' } })
    })
    await click('codes-submit')
    await waitFor(() => expect(posts).toHaveLength(1))
    expect(posts[0]).toMatchObject({ name: '春节', count: 100, usesPerCode: 1, reward: { coins: 10 }, expiresAt: 0 })
    expect((await screen.findByTestId('codes-list')).textContent).toBe(CODES.join('\n'))

    await click('codes-close')
    expect((await screen.findAllByText('还没有下载或复制这些兑换码')).length).toBeGreaterThan(0)
    expect(screen.getByTestId('codes-list')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByText(/^(Cancel|取\s*消)$/).closest('button')!)
    })

    await click('codes-download')
    expect(names).toEqual(['codes-batch-9.csv'])
    expect(await blobs[0].text()).toBe('code\r\nAAAA-BBBB-CCCC\r\nDDDD-EEEE-FFFF\r\n')
    await screen.findByText('已下载 codes-batch-9.csv')
    // Closing now asks nothing: no second confirmation appears (happy-dom
    // never ends antd's closing animation, so the dialog's nodes linger).
    const asked = screen.queryAllByText('仍然关闭').length
    await click('codes-close')
    await new Promise((r) => setTimeout(r, 300))
    expect(screen.queryAllByText('仍然关闭')).toHaveLength(asked)
    await screen.findByTestId('codes-state-9')
  })
})
