// @vitest-environment happy-dom
// The sign-in page against a fake of the session calls: a wrong password's
// tip; an operator without TOTP gets the enrolment (QR and secret), a wrong
// code stays there, the right one shows the recovery codes, and the console
// opens only after "I saved them", at the ?next= it was sent from, with the
// token stored.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { readSession } from '@/lib/session-store'
import { LoginPage } from './LoginPage'

type Answer = { status: number; body: unknown }
const env = (status: number, data: unknown, tip = '') => ({ status, body: { code: status, tip, msg: '', data } })

let answers: Answer[]
let seen: { url: string; body: unknown }[]

beforeEach(() => {
  answers = []
  seen = []
  localStorage.clear()
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    seen.push({ url, body: init.body ? JSON.parse(String(init.body)) : undefined })
    const a = answers.shift()
    if (!a) throw new Error('no answer for ' + url)
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'Content-Type': 'application/json' } })
  })
  // antd reads these in the browser.
  window.matchMedia ??= ((q: string) => ({ matches: false, media: q, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, onchange: null, dispatchEvent: () => false })) as typeof window.matchMedia
})

afterEach(() => {
  cleanup()
  vi.unstubAllGlobals()
})

function mount(path = '/login?next=%2Faudit') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/audit', element: <p>audit page</p> },
      { path: '/', element: <p>overview</p> },
    ],
    { initialEntries: [path] },
  )
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  )
  return router
}

const byTestId = (id: string) => screen.getByTestId(id) as HTMLInputElement
async function type(id: string, value: string) {
  await act(async () => {
    fireEvent.change(byTestId(id), { target: { value } })
  })
}
async function click(id: string) {
  await act(async () => {
    fireEvent.click(screen.getByTestId(id))
  })
}

describe('LoginPage', () => {
  it('shows the server tip of a refused sign-in and keeps the form', async () => {
    mount()
    answers.push(env(401, null, '账号、密码或验证码错误'))
    await type('login-account', 'ops_1')
    await type('login-password', 'wrong')
    await type('login-code', '123456')
    await click('login-submit')
    expect((await screen.findByTestId('login-error')).textContent).toContain('账号、密码或验证码错误')
    expect(seen[0]).toEqual({ url: '/api/admin/session', body: { account: 'ops_1', passWord: 'wrong', code: '123456' } })
    expect(readSession()).toBeNull()
  })

  it('refuses a malformed code before asking the server', async () => {
    mount()
    await type('login-account', 'ops_1')
    await type('login-password', 'pw')
    await type('login-code', '12ab')
    await click('login-submit')
    await waitFor(() => expect(document.body.textContent).toContain('请输入 6 位数字验证码或恢复码'))
    expect(seen).toHaveLength(0)
  })

  it('enrols, shows the recovery codes once and opens the console only after they are saved', async () => {
    const router = mount()
    const enrol = { ticket: 'tk1', secret: 'JBSWY3DPEHPK3PXP', otpauthURL: 'otpauth://totp/Prima:ops_1?secret=JBSWY3DPEHPK3PXP&issuer=Prima' }
    answers.push(env(428, { enrol }, '请先绑定验证器'))
    await type('login-account', ' ops_1 ')
    await type('login-password', 'pw')
    await click('login-submit')
    expect(seen[0].body).toEqual({ account: 'ops_1', passWord: 'pw', code: '' })
    expect((await screen.findByTestId('enrol-secret')).textContent).toContain('JBSW Y3DP EHPK 3PXP')
    await waitFor(() => expect(byTestId('enrol-qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/))

    answers.push(env(422, null, '验证码错误'))
    await type('enrol-code', '000000')
    await click('enrol-submit')
    expect((await screen.findByTestId('enrol-error')).textContent).toContain('验证码错误')

    const codes = Array.from({ length: 10 }, (_, i) => `aaa${i}-bbb${i}`)
    answers.push({ status: 200, body: { code: 200, data: { token: 'ct_ok', expiresAt: '2999-01-01T00:00:00Z', role: 'owner', recoveryCodes: codes } } })
    await type('enrol-code', '123456')
    await click('enrol-submit')
    expect(seen[2]).toEqual({ url: '/api/admin/session/enrol', body: { ticket: 'tk1', code: '123456' } })
    const shown = await screen.findByTestId('recovery-codes')
    for (const c of codes) expect(shown.textContent).toContain(c)
    expect(readSession()).toBeNull()
    expect((screen.getByTestId('recovery-continue') as HTMLButtonElement).disabled).toBe(true)

    const saved = screen.getByTestId('recovery-saved')
    await act(async () => {
      fireEvent.click(saved.tagName === 'INPUT' ? saved : saved.querySelector('input')!)
    })
    await click('recovery-continue')
    await waitFor(() => expect(router.state.location.pathname).toBe('/audit'))
    expect(readSession()?.token).toBe('ct_ok')
  })

  it('goes straight on when a session is stored already', async () => {
    localStorage.setItem('prima_console_session', JSON.stringify({ token: 'ct_1', expiresAt: '2999-01-01T00:00:00Z' }))
    const router = mount()
    await waitFor(() => expect(router.state.location.pathname).toBe('/audit'))
    expect(seen).toHaveLength(0)
  })

  it('starts again when the enrolment ticket is gone', async () => {
    mount()
    answers.push(env(428, { enrol: { ticket: 'old', secret: 'JBSWY3DPEHPK3PXP', otpauthURL: 'otpauth://totp/x?secret=JBSWY3DPEHPK3PXP' } }))
    await type('login-account', 'ops_1')
    await type('login-password', 'pw')
    await click('login-submit')
    await screen.findByTestId('enrol-code')
    answers.push(env(401, null, '请重新登录'))
    await type('enrol-code', '123456')
    await click('enrol-submit')
    expect((await screen.findByTestId('login-error')).textContent).toContain('请重新登录')
    expect(screen.queryByTestId('enrol-code')).toBeNull()
  })
})
