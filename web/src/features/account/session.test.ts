import { beforeEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { CookieJar, MemoryStorage } from '@/lib/testing'

vi.stubGlobal('localStorage', new MemoryStorage())
vi.stubGlobal('document', new CookieJar())

const post = vi.fn()
vi.mock('@/lib/api', async (orig) => ({ ...(await orig<typeof import('@/lib/api')>()), api: { post: (...a: unknown[]) => post(...a) } }))
const { ensureGuestSession, signOut } = await import('./session')
const { useUserStore } = await import('@/stores/user')

const guest = (uid: number) => ({ uid, name: '游客' + uid, portrait: '', account: null, isGuest: true }) as never

describe('ensureGuestSession', () => {
  beforeEach(() => {
    post.mockReset()
    useUserStore.getState().logout()
  })

  it('sends one sign-in however many callers ask at once', async () => {
    post.mockResolvedValue({ token: 't1', isNew: true, user: guest(1) })
    await Promise.all([ensureGuestSession(), ensureGuestSession(), ensureGuestSession()])
    expect(post).toHaveBeenCalledTimes(1)
    expect(useUserStore.getState().token).toBe('t1')
    await ensureGuestSession()
    expect(post).toHaveBeenCalledTimes(1) // a session exists
  })

  it('lets a failed sign-in be tried again', async () => {
    post.mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce({ token: 't2', isNew: false, user: guest(2) })
    await expect(ensureGuestSession()).rejects.toThrow('offline')
    await ensureGuestSession()
    expect(useUserStore.getState().token).toBe('t2')
  })

  // The shell draws the page while signingIn; splash shows signInError.
  it('says while it is under way, and keeps why it failed until the next try', async () => {
    let fail!: (e: Error) => void
    post.mockReturnValueOnce(new Promise((_, f) => (fail = f))).mockResolvedValueOnce({ token: 't3', isNew: false, user: guest(3) })
    const first = ensureGuestSession()
    expect(useUserStore.getState()).toMatchObject({ signingIn: true, signInError: null, token: null })
    const err = new Error('offline')
    fail(err)
    await expect(first).rejects.toThrow('offline')
    expect(useUserStore.getState()).toMatchObject({ signingIn: false, signInError: err, token: null })
    const second = ensureGuestSession()
    expect(useUserStore.getState()).toMatchObject({ signingIn: true, signInError: null })
    await second
    expect(useUserStore.getState()).toMatchObject({ signingIn: false, signInError: null, token: 't3' })
  })
})

describe('signOut', () => {
  it("drops every cached query, so the next user never sees the last one's data", async () => {
    useUserStore.getState().login('member', { ...(guest(9) as object), isGuest: false, account: 'neo' } as never)
    const client = new QueryClient()
    client.setQueryData(['mine', 'info', 'member'], { uid: 9 })
    client.setQueryData(['catalog', 'modules', 0], [])
    post.mockImplementation(async (path: string) =>
      path === '/api/app/mine/logout' ? null : { token: 'guest', isNew: false, user: guest(10) },
    )
    await signOut(client)
    expect(client.getQueryCache().getAll()).toHaveLength(0)
    expect(useUserStore.getState()).toMatchObject({ token: 'guest', user: { uid: 10 } })
    expect(JSON.parse(localStorage.getItem('prima_user')!).state.user.uid).toBe(10)
  })
})
