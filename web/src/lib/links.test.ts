import { describe, expect, it, vi } from 'vitest'
import { linkOf, openLink, resolveLink } from './links'

const route = (path: string) => ({ kind: 'route', path })
const external = (url: string) => ({ kind: 'external', url })

describe('linkOf', () => {
  it('takes the first non-blank field in the spec order', () => {
    expect(linkOf({ href: 'a', link: 'b' })).toBe('a')
    expect(linkOf({ href: '', link: '  ', url: null, linkUrl: 'd', quickLinkUrl: 'e' })).toBe('d')
    expect(linkOf({ quickLinkUrl: 'e', jumpLink: 'f' })).toBe('e')
    expect(linkOf({ jumpLink: ' f ' })).toBe('f')
    expect(linkOf({ url: 'c', linkUrl: 'd' })).toBe('c')
    expect(linkOf({ title: 'no link' })).toBe('')
    expect(linkOf(null)).toBe('')
  })

  it('ignores non-string fields from loose JSON', () => {
    expect(linkOf({ href: 5, link: 'b' } as unknown as { link: string })).toBe('b')
  })
})

describe('resolveLink', () => {
  it('opens http, https and www links externally', () => {
    expect(resolveLink({ href: 'https://example.com/a?b=1' })).toEqual(external('https://example.com/a?b=1'))
    expect(resolveLink({ url: 'HTTP://example.com' })).toEqual(external('HTTP://example.com'))
    expect(resolveLink({ link: 'www.example.com/x' })).toEqual(external('https://www.example.com/x'))
    expect(resolveLink('WWW.example.com')).toEqual(external('https://WWW.example.com'))
  })

  it('maps every named target of the spec', () => {
    const cases: [string, string][] = [
      ['shortvideo', '/shortvideo'],
      ['short_video', '/shortvideo'],
      ['videoimage', '/galleryCategory'],
      ['video-image', '/galleryCategory'],
      ['galleryCategory', '/galleryCategory'],
      ['cj_activity', '/cj_activity'],
      ['cjactivity', '/cj_activity'],
      ['share', '/mine/shareyaoqing'],
      ['welfare', '/mine/userfulitask'],
      ['application center', '/mine/applicationcenter'],
      ['vip', '/mine/vipcenter'],
      ['vipcenter', '/mine/vipcenter'],
      ['coin_topup', '/mine/usercoinchongzhi'],
      ['recharge', '/mine/usercoinchongzhi'],
      ['accountcode', '/mine/accountcode'],
      ['tocommunity', '/community'],
      ['community', '/community'],
      ['toindex', '/home'],
      ['index', '/home'],
    ]
    for (const [link, path] of cases) {
      expect(resolveLink({ jumpLink: link }), link).toEqual(route(path))
      expect(resolveLink({ jumpLink: 'prima://' + link }), 'prima://' + link).toEqual(route(path))
    }
  })

  it('is case-insensitive in scheme and target', () => {
    expect(resolveLink('PRIMA://ShortVideo')).toEqual(route('/shortvideo'))
    expect(resolveLink('VIPCENTER')).toEqual(route('/mine/vipcenter'))
  })

  it('takes the post id from the last path segment', () => {
    expect(resolveLink('postdetail/123')).toEqual(route('/cdetail/123'))
    expect(resolveLink('prima://postdetail/community/posts/456')).toEqual(route('/cdetail/456'))
    expect(resolveLink('post_detail/789/')).toEqual(route('/cdetail/789'))
    expect(resolveLink('cdetail/42?from=ad')).toEqual(route('/cdetail/42'))
    expect(resolveLink('postdetail?id=77')).toEqual(route('/cdetail/77'))
  })

  it('encodes the post id', () => {
    expect(resolveLink('postdetail/a b')).toEqual(route('/cdetail/a%20b'))
  })

  it('sends a post detail without an id home', () => {
    expect(resolveLink('postdetail')).toEqual(route('/home'))
    expect(resolveLink('prima://postdetail/')).toEqual(route('/home'))
  })

  it('keeps the query of a named target', () => {
    expect(resolveLink('share?type=2')).toEqual(route('/mine/shareyaoqing?type=2'))
    expect(resolveLink('prima://vip?')).toEqual(route('/mine/vipcenter'))
    expect(resolveLink('prima://welfare#top')).toEqual(route('/mine/userfulitask'))
  })

  it('passes in-app paths through', () => {
    expect(resolveLink('/cdetail/123')).toEqual(route('/cdetail/123'))
    expect(resolveLink({ href: '/mine/address?type=1' })).toEqual(route('/mine/address?type=1'))
    expect(resolveLink('/')).toEqual(route('/'))
  })

  it('goes home for no target, unknown targets and other schemes', () => {
    expect(resolveLink(undefined)).toEqual(route('/home'))
    expect(resolveLink({})).toEqual(route('/home'))
    expect(resolveLink({ href: '   ' })).toEqual(route('/home'))
    expect(resolveLink('prima://')).toEqual(route('/home'))
    expect(resolveLink('nowhere')).toEqual(route('/home'))
    expect(resolveLink('javascript:alert(1)')).toEqual(route('/home'))
    expect(resolveLink('mailto:a@b.c')).toEqual(route('/home'))
    expect(resolveLink('//evil.example.com/x')).toEqual(route('/home'))
    expect(resolveLink('https://')).toEqual(route('/home'))
  })
})

describe('openLink', () => {
  it('navigates for routes and opens a new window for external links', () => {
    const navigate = vi.fn()
    const open = vi.fn()
    openLink({ jumpLink: 'vip' }, navigate, open)
    expect(navigate).toHaveBeenCalledWith('/mine/vipcenter')
    expect(open).not.toHaveBeenCalled()

    navigate.mockClear()
    const l = openLink({ href: 'www.example.com' }, navigate, open)
    expect(open).toHaveBeenCalledWith('https://www.example.com', '_blank', 'noopener')
    expect(navigate).not.toHaveBeenCalled()
    expect(l).toEqual(external('https://www.example.com'))
  })

  it('uses window.open by default', () => {
    const open = vi.fn()
    vi.stubGlobal('window', { open })
    try {
      openLink('https://example.com', vi.fn())
      expect(open).toHaveBeenCalledWith('https://example.com', '_blank', 'noopener')
    } finally {
      vi.unstubAllGlobals()
    }
  })
})
