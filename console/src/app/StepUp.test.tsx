// @vitest-environment happy-dom
// The step-up prompt wired to the real client: a call refused with 403
// {stepUp} opens the prompt; a wrong code keeps it open with the server's
// words; the right code is posted to session/stepup and the call is sent
// again and resolves. Cancel gives the call its 403 back.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { api } from '@/lib/client'
import { saveSession } from '@/lib/session-store'
import { StepUpHost } from './StepUp'

type Answer = { status: number; body: unknown }
const env = (status: number, data: unknown, tip = '') => ({ status, body: { code: status, tip, msg: '', data } })
let answers: Answer[]
let seen: { url: string; body: unknown; auth: string | undefined }[]

beforeEach(() => {
  answers = []
  seen = []
  localStorage.clear()
  saveSession({ token: 'ct_1', expiresAt: '2999-01-01T00:00:00Z' })
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined, auth: (init.headers as Record<string, string>).Authorization })
    const a = answers.shift()
    if (!a) throw new Error('no answer for ' + url)
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } })
  })
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia
  render(
    <QueryClientProvider client={new QueryClient()}>
      <StepUpHost />
    </QueryClientProvider>,
  )
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

const stepUpNeeded = env(403, { stepUp: true }, '请输入动态验证码以继续')

async function enter(code: string) {
  await act(async () => {
    fireEvent.change(screen.getByTestId('stepup-code'), { target: { value: code } })
  })
  await act(async () => {
    fireEvent.click(screen.getByTestId('stepup-submit'))
  })
}

describe('StepUpHost', () => {
  it('asks for a code, posts it, and sends the refused call again', async () => {
    answers.push(stepUpNeeded)
    const call = api.post<{ uid: number }>('/api/admin/operators/role', { uid: 4, role: 'support' })
    await screen.findByTestId('stepup-code')

    answers.push(env(422, null, '验证码错误'))
    await enter('111111')
    await waitFor(() => expect(document.body.textContent).toContain('验证码错误'))

    answers.push({ status: 200, body: { code: 200, data: { stepUpUntil: '2999-01-01T00:05:00Z' } } })
    answers.push({ status: 200, body: { code: 200, data: { uid: 4 } } })
    await enter('222 222')
    expect(await call).toEqual({ uid: 4 })
    expect(seen.map((s) => s.url)).toEqual(['/api/admin/operators/role', '/api/admin/session/stepup', '/api/admin/session/stepup', '/api/admin/operators/role'])
    expect(seen[2].body).toEqual({ code: '222222' })
    expect(seen[3].body).toEqual({ uid: 4, role: 'support' })
    expect(seen.every((s) => s.auth === 'Bearer ct_1')).toBe(true)
  })

  it('gives the call its 403 back when the prompt is cancelled', async () => {
    answers.push(stepUpNeeded)
    const call = api.post('/api/admin/operators', { account: 'x', role: 'content' }).then(
      () => 'resolved',
      (e: unknown) => e,
    )
    await screen.findByTestId('stepup-code')
    await act(async () => {
      fireEvent.click(screen.getByText(/取\s*消/).closest('button')!)
    })
    expect(await call).toMatchObject({ status: 403, needsStepUp: true })
    expect(seen).toHaveLength(1)
  })
})
