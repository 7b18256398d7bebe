import { describe, expect, it } from 'vitest'
import { allowed, pageOf, visiblePages } from './pages'

describe('pages', () => {
  it('shows a role only the pages of its sections, and its own sessions always', () => {
    expect(visiblePages(['dashboard', 'audit']).map((p) => p.path)).toEqual(['/', '/audit', '/security'])
    expect(visiblePages([]).map((p) => p.path)).toEqual(['/security'])
    // Each section adds its pages: check those named here are shown and
    // none of a section the role lacks.
    const shown = visiblePages(['dashboard', 'content', 'people', 'audit', 'operators'])
    expect(shown.map((p) => p.path)).toEqual(
      expect.arrayContaining(['/', '/content/modules', '/content/videos', '/people', '/people/applications', '/people/feedback', '/audit', '/operators', '/security']),
    )
    expect(shown.every((p) => p.section === null || ['dashboard', 'content', 'people', 'audit', 'operators'].includes(p.section))).toBe(true)
  })
  it("keeps the support desk's pages to support (and owner) among the people section's roles", () => {
    const paths = (role: 'support' | 'moderator' | 'finance' | 'owner') => visiblePages(['people'], role).map((p) => p.path)
    expect(paths('support')).toEqual(expect.arrayContaining(['/people', '/people/applications', '/people/feedback']))
    expect(paths('owner')).toEqual(expect.arrayContaining(['/people/applications', '/people/feedback']))
    for (const role of ['moderator', 'finance'] as const) {
      expect(paths(role)).toContain('/people')
      expect(paths(role)).not.toContain('/people/applications')
      expect(paths(role)).not.toContain('/people/feedback')
    }
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
