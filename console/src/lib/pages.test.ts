import { describe, expect, it } from 'vitest'
import { allowed, pageOf, visiblePages } from './pages'

describe('pages', () => {
  it('shows a role only the pages of its sections, and its own sessions always', () => {
    expect(visiblePages(['dashboard', 'audit']).map((p) => p.path)).toEqual(['/', '/audit', '/security'])
    expect(visiblePages([]).map((p) => p.path)).toEqual(['/security'])
    const all = visiblePages(['dashboard', 'content', 'people', 'audit', 'operators'])
    expect(all.map((p) => p.path).filter((p) => !p.startsWith('/content/'))).toEqual(['/', '/people', '/audit', '/operators', '/security'])
    // the content section's pages (modules, videos, the catalogue's): all under /content, all of section content
    expect(all.filter((p) => p.path.startsWith('/content/')).map((p) => p.path)).toEqual(expect.arrayContaining(['/content/modules', '/content/videos', '/content/ads', '/content/source']))
    expect(all.filter((p) => p.group === 'content').every((p) => p.section === 'content' && p.path.startsWith('/content/'))).toBe(true)
  })
  it('finds the page of a path, deepest first', () => {
    expect(pageOf('/')?.path).toBe('/')
    expect(pageOf('/audit/')?.path).toBe('/audit')
    expect(pageOf('/content/videos')?.section).toBe('content')
    expect(pageOf('/operators/12')?.path).toBe('/operators')
    expect(pageOf('/nowhere')).toBeUndefined()
    expect(pageOf('/auditx')).toBeUndefined()
  })
  it('allows null sections to everyone', () => {
    expect(allowed(null, [])).toBe(true)
    expect(allowed('operators', ['audit'])).toBe(false)
  })
})
