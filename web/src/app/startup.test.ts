// Start-up sends every independent call at once: nothing that needs no
// answer waits for one.
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { QueryClient } from '@tanstack/react-query'
import { CookieJar, MemoryStorage } from '@/lib/testing'

vi.stubGlobal('localStorage', new MemoryStorage())
vi.stubGlobal('document', new CookieJar())

const IPHONE = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/140 Safari/537.36'

// Every call stays unanswered until the test says so.
const pending = new Map<string, (v: unknown) => void>()
const calls: string[] = []
const bodies: unknown[] = []
const hold = (path: string, body?: unknown) => {
  calls.push(path)
  bodies.push(body)
  return new Promise((resolve) => pending.set(path, resolve))
}
vi.mock('@/lib/api', async (orig) => ({
  ...(await orig<typeof import('@/lib/api')>()),
  api: { get: (path: string) => hold(path), post: (path: string, body?: unknown) => hold(path, body) },
}))
vi.mock('./routes', () => ({ preloadRoute: vi.fn(), routeNameAt: (p: string) => (p === '/' ? 'splash' : 'other') }))

const { startUp, mayStartSession, countLandingVisit, VISIT_PATH } = await import('./startup')
const { useUserStore } = await import('@/stores/user')
const { useConfigStore } = await import('@/stores/config')

const user = { uid: 5, name: 'g', portrait: '', account: null, isGuest: true } as never
const modules = [{ moduleID: 1, moduleName: 'm', moduleType: 0, sort: 1, subModules: [] }]

function answer(path: string, value: unknown) {
  pending.get(path)!(value)
}

describe('startUp', () => {
  beforeEach(() => {
    calls.length = 0
    pending.clear()
    useUserStore.getState().logout()
    useConfigStore.setState({ source: null })
  })

  it('on a first visit from an iPhone, sends the public calls and the guest sign-in at once', async () => {
    vi.stubGlobal('navigator', { userAgent: IPHONE, maxTouchPoints: 5, onLine: true })
    startUp(new QueryClient(), '/')
    await Promise.resolve()
    expect([...calls].sort()).toEqual(
      [
        '/api/app/vid/source',
        '/api/app/modules/announce',
        '/api/app/modules/list',
        '/api/app/tag/conf/list',
        '/api/app/ping/domain/h5',
        '/api/app/mine/login',
      ].sort(),
    )
    // Home's sections follow the modules and, on a first visit, the
    // configuration that names the default tab: one round later, not three.
    answer('/api/app/modules/list', modules)
    await new Promise((r) => setTimeout(r, 0))
    expect(calls).not.toContain('/api/app/vid/moduleSection')
    answer('/api/app/vid/source', { gate: { mode: 'off' }, MODULESELECTINDEX: [{ title: '1' }] })
    await vi.waitFor(() => expect(calls).toContain('/api/app/vid/moduleSection'))
    answer('/api/app/mine/login', { token: 'tok', isNew: true, user })
    await vi.waitFor(() => expect(useUserStore.getState().token).toBe('tok'))
  })

  it('holds the guest sign-in of a device the gate may keep out until the gate has answered', () => {
    vi.stubGlobal('navigator', { userAgent: DESKTOP, maxTouchPoints: 0, onLine: true })
    expect(mayStartSession()).toBe(false)
    startUp(new QueryClient(), '/')
    expect(calls).not.toContain('/api/app/mine/login')
    expect(calls).toContain('/api/app/vid/source')
    // A configuration from the last visit that lets it in starts it at once.
    useConfigStore.setState({ source: { gate: { mode: 'off', redirectURL: '', publicURL: '' } } })
    expect(mayStartSession()).toBe(true)
  })

  it('signs in no one when a session exists', () => {
    vi.stubGlobal('navigator', { userAgent: IPHONE, maxTouchPoints: 5, onLine: true })
    useUserStore.getState().login('old', user)
    startUp(new QueryClient(), '/other')
    expect(calls).not.toContain('/api/app/mine/login')
    expect(calls).not.toContain('/api/app/modules/list') // not a page that shows home next
  })
})

describe('countLandingVisit', () => {
  beforeEach(() => {
    calls.length = 0
    bodies.length = 0
    pending.clear()
    useUserStore.getState().logout()
  })
  const visits = () => bodies.filter((_, i) => calls[i] === VISIT_PATH)

  it('sends nothing without a share code, or with one that is no code', () => {
    useUserStore.getState().login('tok', user)
    countLandingVisit('')
    countLandingVisit('?x=1')
    countLandingVisit('?ic=%3Cscript%3E')
    expect(visits()).toEqual([])
  })

  it('counts the visit at once when the device has a session', () => {
    useUserStore.getState().login('tok', user)
    countLandingVisit('?ic=abc234&from=share')
    expect(visits()).toEqual([{ code: 'ABC234' }])
  })

  it('waits for the guest sign-in, then counts once', () => {
    countLandingVisit('?ic=XYZ789')
    expect(visits()).toEqual([])
    useUserStore.getState().login('tok', user)
    expect(visits()).toEqual([{ code: 'XYZ789' }])
    // Later session changes (sign out, a new guest) count nothing more.
    useUserStore.getState().logout()
    useUserStore.getState().login('tok2', user)
    expect(visits()).toEqual([{ code: 'XYZ789' }])
  })

  it('is part of start-up, after the guest sign-in', async () => {
    vi.stubGlobal('navigator', { userAgent: IPHONE, maxTouchPoints: 5, onLine: true })
    vi.stubGlobal('location', { search: '?ic=abc234', pathname: '/' })
    startUp(new QueryClient(), '/')
    await Promise.resolve()
    expect(calls).toContain('/api/app/mine/login')
    expect(calls).not.toContain(VISIT_PATH)
    answer('/api/app/mine/login', { token: 'tok', isNew: true, user })
    await vi.waitFor(() => expect(visits()).toEqual([{ code: 'ABC234' }]))
    vi.unstubAllGlobals()
    vi.stubGlobal('localStorage', new MemoryStorage())
    vi.stubGlobal('document', new CookieJar())
  })
})
