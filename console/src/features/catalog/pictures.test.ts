import { describe, expect, it } from 'vitest'
import { movePicture, pictureIds, pictureProblem, updatePicture, type PictureItem } from './pictures'

const done = (key: string, assetId: number): PictureItem => ({ key, name: key, assetId, pct: 100, state: 'done' })

describe('gallery pictures', () => {
  it('moves a picture up and down, not past the ends', () => {
    const l = [1, 2, 3]
    expect(movePicture(l, 1, -1)).toEqual([2, 1, 3])
    expect(movePicture(l, 1, 1)).toEqual([1, 3, 2])
    expect(movePicture(l, 0, -1)).toBe(l)
    expect(movePicture(l, 2, 1)).toBe(l)
    expect(l).toEqual([1, 2, 3])
  })
  it('sends the ids in order only when every upload is done', () => {
    const l = [done('a', 7), done('b', 3)]
    expect(pictureIds(l)).toEqual([7, 3])
    const busy = [...l, { key: 'c', name: 'c', pct: 40, state: 'uploading' } as PictureItem]
    expect(pictureIds(busy)).toBeNull()
    expect(pictureProblem(busy)).toBe('catalog.pictures.busy')
    const failed = updatePicture(busy, 'c', (p) => ({ ...p, state: 'failed', error: 'x' }))
    expect(pictureProblem(failed)).toBe('catalog.pictures.failed')
    expect(pictureProblem(l)).toBeNull()
  })
  it('refuses an empty list and a picture twice', () => {
    expect(pictureProblem([])).toBe('catalog.pictures.none')
    expect(pictureProblem([done('a', 1), done('b', 1)])).toBe('catalog.pictures.twice')
  })
})
