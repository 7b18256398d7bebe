// @vitest-environment happy-dom
// The prizes page against a stubbed server: the list shows each stock; an
// edit sends the stock it showed (stockBefore), and when the server says
// the stock moved (409) the message is the server's and the list is read
// again, the drawer staying open for another try.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App } from 'antd'
import { saveSession } from '@/lib/session-store'
import { PrizesPage } from './PrizesPage'
import type { Prize } from './api'

const prize = (o: Partial<Prize>): Prize => ({ id: 1, title: '10 金币', cost: 100, reward: { coins: 10 }, stock: 5, perUserLimit: 0, active: true, sort: 0, ...o })
let list: Prize[]
let posts: unknown[]
let postAnswer: { status: number; body: unknown }
let gets: number

beforeEach(() => {
  list = [prize({}), prize({ id: 2, title: 'VIP 1 天', reward: { vipLevel: 1, vipDays: 1 }, stock: null })]
  posts = []
  gets = 0
  postAnswer = { status: 200, body: { code: 200, data: { id: 1 } } }
  localStorage.clear()
  saveSession({ token: 'ct_1', expiresAt: '2999-01-01T00:00:00Z' })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    if (init.method === 'POST') {
      posts.push(JSON.parse(String(init.body)))
      return new Response(JSON.stringify(postAnswer.body), { status: postAnswer.status, headers: { 'Content-Type': 'application/json' } })
    }
    expect(url).toContain('/api/admin/rewards/prizes')
    gets++
    return new Response(JSON.stringify({ code: 200, data: list }), { status: 200, headers: { 'Content-Type': 'application/json' } })
  })
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <App>
        <PrizesPage />
      </App>
    </QueryClientProvider>,
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

async function editAndSave(id: number) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(`prize-edit-${id}`))
  })
  await act(async () => {
    fireEvent.click(screen.getByTestId('prize-submit'))
  })
}

// antd's drawer and form render slowly in happy-dom on a busy machine.
describe('PrizesPage', { timeout: 30_000 }, () => {
  it('lists the stock and sends the stock it showed with an edit', async () => {
    await screen.findByTestId('prize-edit-1')
    expect(document.body.textContent).toContain('不限')
    await editAndSave(1)
    await waitFor(() => expect(posts).toHaveLength(1))
    expect(posts[0]).toMatchObject({ id: 1, stock: 5, stockBefore: 5, reward: { coins: 10 } })
    await editAndSave(2)
    await waitFor(() => expect(posts).toHaveLength(2))
    expect(posts[1]).toMatchObject({ id: 2, stock: null, stockBefore: null, reward: { vipLevel: 1, vipDays: 1 } })
  })

  it('says the stock moved and reads the list again', async () => {
    await screen.findByTestId('prize-edit-1')
    const before = gets
    postAnswer = { status: 409, body: { code: 409, tip: '库存已被兑换改变，请刷新后再改', msg: '', data: null } }
    list = [prize({ stock: 3 }), list[1]]
    await editAndSave(1)
    await waitFor(() => expect(document.body.textContent).toContain('库存已被兑换改变，请刷新后再改'))
    await waitFor(() => expect(gets).toBeGreaterThan(before))
    expect(screen.getByTestId('prize-submit')).toBeTruthy()
  })

  it('makes a new prize without stockBefore', async () => {
    await screen.findByTestId('prize-create')
    await act(async () => {
      fireEvent.click(screen.getByTestId('prize-create'))
    })
    await act(async () => {
      fireEvent.change(screen.getByTestId('prize-title'), { target: { value: '新奖品' } })
    })
    await act(async () => {
      fireEvent.click(screen.getByTestId('prize-submit'))
    })
    await waitFor(() => expect(posts).toHaveLength(1))
    expect(posts[0]).toMatchObject({ id: 0, title: '新奖品', stock: null })
    expect(posts[0]).not.toHaveProperty('stockBefore')
  })
})
