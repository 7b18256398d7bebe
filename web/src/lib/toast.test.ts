import { beforeEach, describe, expect, it, vi } from 'vitest'
import { isValidElement, type ReactElement } from 'react'

const close = vi.fn()
const show = vi.fn((_: unknown) => ({ close }))
const clear = vi.fn()
vi.mock('antd-mobile/es/global', () => ({}))
vi.mock('antd-mobile/es/components/toast', () => ({ default: { show, clear } }))

beforeEach(() => {
  vi.resetModules()
  show.mockClear()
  clear.mockClear()
  close.mockClear()
})

// A fresh copy of the module per test: whether antd-mobile's Toast has
// arrived yet is module state.
const fresh = () => import('./toast')
// Lets the queued dynamic import and its then() callbacks run.
const settle = () => new Promise((r) => setTimeout(r, 0))

describe('toast once its code has loaded', () => {
  it('defaults to 2000 ms', async () => {
    const { toast, TOAST_DURATION, preloadToast } = await fresh()
    await preloadToast()
    expect(TOAST_DURATION).toBe(2000)
    toast.text('hi')
    expect(show).toHaveBeenCalledWith({ content: 'hi', duration: 2000 })
  })

  it('gives each type its icon and passes the duration', async () => {
    const { toast, preloadToast } = await fresh()
    await preloadToast()
    toast.success('ok', 500)
    expect(show).toHaveBeenLastCalledWith({ content: 'ok', icon: 'success', duration: 500 })
    toast.fail('no')
    expect(show).toHaveBeenLastCalledWith({ content: 'no', icon: 'fail', duration: 2000 })
    toast.loading(undefined, 0)
    expect(show).toHaveBeenLastCalledWith({ content: '加载中…', icon: 'loading', duration: 0, maskClickable: false })
  })

  it('renders html as markup', async () => {
    const { toast, preloadToast } = await fresh()
    await preloadToast()
    toast.html('<b>x</b>')
    const arg = show.mock.calls[0][0] as { content: ReactElement<{ dangerouslySetInnerHTML: { __html: string } }>; duration: number }
    expect(isValidElement(arg.content)).toBe(true)
    expect(arg.content.props.dangerouslySetInnerHTML.__html).toBe('<b>x</b>')
    expect(arg.duration).toBe(2000)
  })

  it('clears', async () => {
    const { toast, preloadToast } = await fresh()
    await preloadToast()
    toast.clear()
    expect(clear).toHaveBeenCalledOnce()
  })

  it('returns the handler antd-mobile gave', async () => {
    const { toast, preloadToast } = await fresh()
    await preloadToast()
    toast.text('x').close()
    expect(close).toHaveBeenCalledOnce()
  })
})

describe('toast before its code has loaded', () => {
  it('shows the toast as soon as the code arrives, in call order', async () => {
    const { toast } = await fresh()
    toast.text('first')
    toast.fail('second')
    expect(show).not.toHaveBeenCalled()
    await settle()
    expect(show.mock.calls.map((c) => c[0])).toEqual([
      { content: 'first', duration: 2000 },
      { content: 'second', icon: 'fail', duration: 2000 },
    ])
  })

  it('does not show a toast closed before the code arrived', async () => {
    const { toast } = await fresh()
    const h = toast.loading('wait', 0)
    toast.text('kept')
    h.close()
    await settle()
    expect(show).toHaveBeenCalledExactlyOnceWith({ content: 'kept', duration: 2000 })
  })

  it('closes through the early handler once shown', async () => {
    const { toast } = await fresh()
    const h = toast.text('x')
    await settle()
    expect(show).toHaveBeenCalledOnce()
    h.close()
    expect(close).toHaveBeenCalledOnce()
  })

  it('clear drops the toasts still waiting', async () => {
    const { toast } = await fresh()
    toast.text('dropped')
    toast.clear()
    toast.text('after')
    await settle()
    expect(show).toHaveBeenCalledExactlyOnceWith({ content: 'after', duration: 2000 })
  })

  it('loads the code once for many toasts', async () => {
    const { toast, preloadToast } = await fresh()
    const p = preloadToast()
    toast.text('a')
    expect(preloadToast()).toBe(p)
    await p
    toast.text('b')
    expect(show).toHaveBeenCalledTimes(2)
  })
})

describe('toast when its code cannot be fetched', () => {
  it('drops the toast quietly and tries again on the next one', async () => {
    vi.doMock('antd-mobile/es/components/toast', () => {
      throw new Error('offline')
    })
    const { toast, preloadToast } = await fresh()
    expect(() => toast.text('lost')).not.toThrow()
    await settle()
    expect(show).not.toHaveBeenCalled()
    vi.doMock('antd-mobile/es/components/toast', () => ({ default: { show, clear } }))
    await preloadToast()
    toast.text('back')
    expect(show).toHaveBeenCalledExactlyOnceWith({ content: 'back', duration: 2000 })
  })
})
