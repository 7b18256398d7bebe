import { beforeEach, describe, expect, it, vi } from 'vitest'

const confirm = vi.fn((_: unknown) => Promise.resolve(true))
let loads = 0
let failNext = false

beforeEach(() => {
  vi.resetModules()
  confirm.mockClear()
  loads = 0
  failNext = false
  vi.doMock('antd-mobile/es/components/dialog', () => {
    loads++
    if (failNext) {
      failNext = false
      throw new Error('offline')
    }
    return { default: { confirm } }
  })
})

// A fresh copy per test: whether the dialog has loaded is module state.
const fresh = () => import('./dialog')

describe('confirm', () => {
  it('asks with a cancel button, unless the caller names its own', async () => {
    const { confirm: ask } = await fresh()
    await expect(ask({ title: 'T', content: 'C', confirmText: 'OK' })).resolves.toBe(true)
    expect(confirm).toHaveBeenLastCalledWith({ title: 'T', content: 'C', confirmText: 'OK', cancelText: '取消' })
    await ask({ content: 'C', confirmText: 'OK', cancelText: 'No' })
    expect(confirm).toHaveBeenLastCalledWith({ content: 'C', confirmText: 'OK', cancelText: 'No' })
  })

  it('loads the dialog once however often it asks', async () => {
    const { confirm: ask, loadDialog } = await fresh()
    await Promise.all([ask({ content: 'a' }), ask({ content: 'b' }), loadDialog()])
    await ask({ content: 'c' })
    expect(loads).toBe(1)
    expect(confirm).toHaveBeenCalledTimes(3)
  })

  it('tries the load again after one failed', async () => {
    failNext = true
    const { confirm: ask } = await fresh()
    await expect(ask({ content: 'a' })).rejects.toThrow()
    await expect(ask({ content: 'b' })).resolves.toBe(true)
    expect(confirm).toHaveBeenCalledTimes(1)
  })
})
