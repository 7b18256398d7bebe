import { beforeEach, describe, expect, it, vi } from 'vitest'
import { isValidElement, type ReactElement } from 'react'

const show = vi.fn((_: unknown) => ({ close: () => {} }))
const clear = vi.fn()
vi.mock('antd-mobile/es/global', () => ({}))
vi.mock('antd-mobile/es/components/toast', () => ({ default: { show, clear } }))

const { toast, TOAST_DURATION } = await import('./toast')

beforeEach(() => {
  show.mockClear()
  clear.mockClear()
})

describe('toast', () => {
  it('defaults to 2000 ms', () => {
    expect(TOAST_DURATION).toBe(2000)
    toast.text('hi')
    expect(show).toHaveBeenCalledWith({ content: 'hi', duration: 2000 })
  })

  it('gives each type its icon and passes the duration', () => {
    toast.success('ok', 500)
    expect(show).toHaveBeenLastCalledWith({ content: 'ok', icon: 'success', duration: 500 })
    toast.fail('no')
    expect(show).toHaveBeenLastCalledWith({ content: 'no', icon: 'fail', duration: 2000 })
    toast.loading(undefined, 0)
    expect(show).toHaveBeenLastCalledWith({ content: '加载中…', icon: 'loading', duration: 0, maskClickable: false })
  })

  it('renders html as markup', () => {
    toast.html('<b>x</b>')
    const arg = show.mock.calls[0][0] as { content: ReactElement<{ dangerouslySetInnerHTML: { __html: string } }>; duration: number }
    expect(isValidElement(arg.content)).toBe(true)
    expect(arg.content.props.dangerouslySetInnerHTML.__html).toBe('<b>x</b>')
    expect(arg.duration).toBe(2000)
  })

  it('clears', () => {
    toast.clear()
    expect(clear).toHaveBeenCalledOnce()
  })
})
