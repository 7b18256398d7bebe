import { describe, expect, it } from 'vitest'
import { noticeHref } from './links'

describe('noticeHref', () => {
  it('links the community notices to their post', () => {
    for (const kind of ['post_like', 'comment', 'reply', 'post_review', 'post_removed', 'comment_removed']) {
      expect(noticeHref({ kind, ref: '42' })).toBe('/cdetail/42')
    }
  })
  it('links nothing else, nor a ref that is not an id', () => {
    expect(noticeHref({ kind: 'follow', ref: '42' })).toBeNull()
    expect(noticeHref({ kind: 'like', ref: '42' })).toBeNull()
    expect(noticeHref({ kind: 'comment', ref: 'javascript:alert(1)' })).toBeNull()
    expect(noticeHref({ kind: 'comment', ref: '../mine' })).toBeNull()
    expect(noticeHref({ kind: 'comment', ref: '' })).toBeNull()
  })
})
