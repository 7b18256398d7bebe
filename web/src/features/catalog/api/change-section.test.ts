import { afterEach, describe, expect, it, vi } from 'vitest'

const get = vi.fn()
vi.mock('@/lib/api', () => ({ api: { get: (...a: unknown[]) => get(...a) } }))
const { changeSectionFrom } = await import('./change-section')

const v = (id: number) => ({ id }) as never
const batch = (...ids: number[]) => ({ list: ids.map(v) })

describe('changeSectionFrom', () => {
  afterEach(() => get.mockReset())

  it('asks again while the server repeats the batch on screen', async () => {
    get.mockResolvedValueOnce(batch(1, 2)).mockResolvedValueOnce(batch(3, 4))
    const got = await changeSectionFrom(7, 2, [v(1), v(2)])
    expect(got.map((x: { id: number }) => x.id)).toEqual([3, 4])
    expect(get).toHaveBeenCalledTimes(2)
    expect(get).toHaveBeenCalledWith('/api/app/vid/moduleSection/change', { subModuleID: 7, pageSize: 2 }, { toast: true })
  })

  it('gives up after three answers (a section with a single batch)', async () => {
    get.mockResolvedValue(batch(1, 2))
    const got = await changeSectionFrom(7, 2, [v(1), v(2)])
    expect(got.map((x: { id: number }) => x.id)).toEqual([1, 2])
    expect(get).toHaveBeenCalledTimes(3)
  })

  it('takes a new batch at once', async () => {
    get.mockResolvedValueOnce(batch(5, 6))
    await changeSectionFrom(7, 2, [v(1), v(2)])
    expect(get).toHaveBeenCalledTimes(1)
  })
})
