import { describe, expect, it } from 'vitest'
import { checkImage, checkLine, checkLines, checkLink, checkSource, checkWindow, isLink } from './validate'

describe('links', () => {
  it('takes what the server takes', () => {
    for (const ok of ['', 'https://a.example/x?y=1', '/mine/vipcenter', 'prima://vipcenter', 'share?type=2', 'www.example.com', 'postdetail/12']) expect(checkLink(ok)).toBeNull()
  })
  it('refuses other schemes, spaces and scheme-relative links', () => {
    for (const bad of ['javascript:alert(1)', 'JavaScript:x', 'data:text/html,x', '//evil.example', 'mailto:a@b.c', 'a b', 'prima://a b', '/a\\b', 'a'.repeat(501)]) expect(checkLink(bad)).not.toBeNull()
    expect(isLink('https://a.example/ b')).toBe(false)
  })
  it('wants a picture as an http(s) URL or a /media/ path', () => {
    expect(checkImage('/media/ads/a.jpg')).toBeNull()
    expect(checkImage('https://cdn.example/a.jpg')).toBeNull()
    expect(checkImage('')?.key).toBe('catalog.err.imageRequired')
    expect(checkImage('/api/app/mine/info')?.key).toBe('catalog.err.image')
    expect(checkImage('javascript:x')?.key).toBe('catalog.err.image')
  })
  it('wants an end after the start', () => {
    expect(checkWindow(100, 0)).toBeNull()
    expect(checkWindow(100, 100)).not.toBeNull()
  })
})

describe('checkSource (CheckSource)', () => {
  const e = (title: string, url: string, more: object = {}) => ({ title, url, weight: 0, ...more })
  it('refuses what the server refuses, naming the entry', () => {
    expect(checkSource('NOPE', [])?.key).toBe('catalog.err.key')
    expect(checkSource('GROUP', [e('群', 'https://t.example/g'), e('', 'https://t.example/g')])).toEqual({ key: 'catalog.err.title', n: 2 })
    expect(checkSource('GROUP', [e('群', '')])?.key).toBe('catalog.err.urlRequired')
    expect(checkSource('GROUP', [e('群', 'javascript:alert(1)')])?.key).toBe('catalog.err.url')
    expect(checkSource('CUST', [e('客服', '//evil.example/x')])?.key).toBe('catalog.err.url')
    expect(checkSource('LAND', [e('落地', 'data:text/html,x')])?.key).toBe('catalog.err.url')
    expect(checkSource('GROUP', [e('群', 'https://a.example/\nx')])?.key).toBe('catalog.err.urlBreak')
    expect(checkSource('FAQ', [e('问题', '')])?.key).toBe('catalog.err.answer')
    expect(checkSource('GROUP', [e('群', '/x', { weight: -1 })])?.key).toBe('catalog.err.weight')
    expect(checkSource('GROUP', [e('群', '/x', { icon: 'https://i.example/a.png' })])?.key).toBe('catalog.err.iconOnlyApps')
    expect(checkSource('APPS', [e('应用', '/x', { icon: '/api/app/mine/info' })])?.key).toBe('catalog.err.icon')
    expect(checkSource('APPS', [e('a', '/a', { id: 1 }), e('b', '/b', { id: 1 })])?.key).toBe('catalog.err.dupId')
    expect(checkSource('GROUP', Array.from({ length: 51 }, () => e('群', '/g')))?.key).toBe('catalog.err.tooMany')
  })
  it('takes plain values, multi-line answers and apps with icons', () => {
    expect(checkSource('PROXYRULE', [e('规则', 'DOMAIN-SUFFIX,example.org:443')])).toBeNull()
    expect(checkSource('MODULESELECTINDEX', [e('2', '')])).toBeNull()
    expect(checkSource('FAQ', [e('怎么开通VIP？', '进入「我的」\n点击「开通VIP」')])).toBeNull()
    expect(checkSource('APPS', [e('应用', 'https://apps.example/x', { icon: '/media/covers/a.jpg', desc: '好用' })])).toBeNull()
  })
})

describe('checkLine (normalizeLine)', () => {
  it('wants an origin for a line and a file for a fallback', () => {
    expect(checkLine('api', 'https://api1.example.com')).toBeNull()
    expect(checkLine('api', 'https://api1.example.com/')).toBeNull()
    expect(checkLine('api', 'https://api1.example.com/v1')?.key).toBe('catalog.err.lineOrigin')
    expect(checkLine('api', 'https://a.example.com?x=1')?.key).toBe('catalog.err.lineOrigin')
    expect(checkLine('api', 'ftp://a.example.com')?.key).toBe('catalog.err.line')
    expect(checkLine('api', 'https://u:p@a.example.com')?.key).toBe('catalog.err.line')
    expect(checkLine('api', 'https://a.example.com#x')?.key).toBe('catalog.err.line')
    expect(checkLine('fallback', 'https://cdn.example.com/lines.txt')).toBeNull()
    expect(checkLine('fallback', 'https://cdn.example.com/')?.key).toBe('catalog.err.fallbackPath')
    expect(checkLines({ api: ['https://a.example'], image: ['nope'], video: [], fallback: [] })).toEqual({ key: 'catalog.err.line', n: 1, list: 'image' })
  })
})
