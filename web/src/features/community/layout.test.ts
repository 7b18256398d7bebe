import { describe, expect, it } from 'vitest'
import { choiceFeed, communityColumns, coverRatio, feedChoice, gridOf, splitWaterfall, uniquePosts } from './layout'
import type { Post } from './types'

const post = (id: number, over: Partial<Post> = {}): Post => ({
  id, kind: 'picture', title: '', summary: 's', pictures: [], pictureCount: 0, author: { uid: 1, name: 'a', portrait: '', vipLevel: 0 },
  moduleID: 0, vipLevel: 0, coins: 0, likeCount: 0, commentCount: 0, viewCount: 0, liked: false, pinned: false, featured: false,
  createdAt: 1, publishedAt: 1, ...over,
})
const pic = (width: number, height: number) => ({ id: 1, url: 'u', thumb: 't', width, height, placeholder: '' })

describe('community layout', () => {
  it('reads COMMUNITYLAYOUT: a title 双列/2 (else weight 2) is the waterfall, anything else one column', () => {
    expect(communityColumns([{ title: '双列', url: '', weight: 1 }])).toBe(2) // the seed's entry
    expect(communityColumns([{ title: '单列', url: '', weight: 2 }])).toBe(1)
    expect(communityColumns(undefined)).toBe(1)
    expect(communityColumns([])).toBe(1)
    expect(communityColumns([{ title: '1', url: '', weight: 1 }])).toBe(1)
    expect(communityColumns([{ title: '', url: '', weight: 2 }])).toBe(2)
    expect(communityColumns([{ title: '2', url: '', weight: 0 }])).toBe(2)
    expect(communityColumns([{ title: 'x', url: '', weight: 7 }])).toBe(1)
  })

  it('maps the tab choice to a feed and back', () => {
    expect(choiceFeed(undefined)).toBe('recommend')
    expect(choiceFeed(feedChoice('new'))).toBe('new')
    expect(choiceFeed(feedChoice('follow'))).toBe('follow')
    expect(choiceFeed(feedChoice('recommend'))).toBe('recommend')
    expect(choiceFeed(12)).toBeNull()
  })

  it('clamps a cover to 3:4..4:3 and has none for a text post', () => {
    expect(coverRatio(post(1))).toBeNull()
    expect(coverRatio(post(1, { pictures: [pic(100, 1000)] }))).toBeCloseTo(4 / 3)
    expect(coverRatio(post(1, { pictures: [pic(1000, 100)] }))).toBeCloseTo(3 / 4)
    expect(coverRatio(post(1, { pictures: [pic(0, 0)] }))).toBe(1)
  })

  it('deals waterfall cards to the shorter column, keeping the earlier ones in place', () => {
    const [l, r] = splitWaterfall([3, 1, 1, 1, 2], (x) => x)
    expect(l).toEqual([3, 2])
    expect(r).toEqual([1, 1, 1])
    const [l2, r2] = splitWaterfall([3, 1, 1, 1, 2, 5], (x) => x)
    expect(l2.slice(0, 2)).toEqual(l)
    expect(r2.slice(0, 3)).toEqual(r)
  })

  it('lays pictures out 1 large, 2 and 4 in two columns, else three, "+N" past nine', () => {
    expect(gridOf(1, 1)).toEqual({ cols: 1, cells: 1, extra: 0 })
    expect(gridOf(2, 2).cols).toBe(2)
    expect(gridOf(4, 4).cols).toBe(2)
    expect(gridOf(5, 5).cols).toBe(3)
    expect(gridOf(9, 9)).toEqual({ cols: 3, cells: 9, extra: 0 })
    expect(gridOf(1, 6)).toEqual({ cols: 1, cells: 1, extra: 5 }) // a locked paid post
  })

  it('drops posts repeated across pages', () => {
    expect(uniquePosts([{ list: [post(1), post(2)] }, { list: [post(2), post(3)] }]).map((p) => p.id)).toEqual([1, 2, 3])
    expect(uniquePosts(undefined)).toEqual([])
  })
})
