import { describe, expect, it } from 'vitest'
import { afterSplash, appPathOf, splashState } from './landing'

describe('appPathOf', () => {
  it('keeps a path of this app with its query and fragment', () => {
    expect(appPathOf('/detail/42')).toBe('/detail/42')
    expect(appPathOf('/cdetail/7?from=share')).toBe('/cdetail/7?from=share')
    expect(appPathOf('/mine/register?ic=ABC234')).toBe('/mine/register?ic=ABC234')
    expect(appPathOf('/search/result?kw=%E7%8C%AB#top')).toBe('/search/result?kw=%E7%8C%AB#top')
  })

  it('refuses anything that would leave the app', () => {
    for (const v of [
      '//evil.example/x',
      '/\\evil.example/x',
      '\\\\evil.example',
      '/\t/evil.example',
      '/\n/evil.example',
      'https://evil.example/',
      'http:evil.example',
      'javascript:alert(1)',
      'evil.example',
      '',
      ' /detail/1',
    ]) {
      expect(appPathOf(v), JSON.stringify(v)).toBeNull()
    }
  })

  it('refuses splash itself (a loop), non-strings and the absurdly long', () => {
    expect(appPathOf('/')).toBeNull()
    expect(appPathOf('/?ic=ABC234')).toBeNull()
    expect(appPathOf(undefined)).toBeNull()
    expect(appPathOf({ toString: () => '/detail/1' })).toBeNull()
    expect(appPathOf('/detail/' + '1'.repeat(3000))).toBeNull()
  })

  it('normalises what the browser would: dot segments stay inside the app', () => {
    expect(appPathOf('/detail/../mine')).toBe('/mine')
    expect(appPathOf('/..//evil.example')).toBeNull()
    expect(appPathOf('/detail/..//evil.example')).toBeNull()
  })
})

describe('splash round trip', () => {
  it('carries the page asked for through splash', () => {
    const s = splashState('/mine/register', '?ic=ABC234', '')
    expect(afterSplash(s, '?ic=ABC234')).toBe('/mine/register?ic=ABC234')
    expect(afterSplash(splashState('/detail/9', '', ''), '')).toBe('/detail/9')
  })

  it('goes home with the query when nothing (or nothing safe) was asked for', () => {
    expect(afterSplash(null, '?ch=e2e')).toBe('/home?ch=e2e')
    expect(afterSplash(undefined, '')).toBe('/home')
    expect(afterSplash({ from: '//evil.example/' }, '')).toBe('/home')
    expect(afterSplash({ from: 'https://evil.example/' }, '?a=1')).toBe('/home?a=1')
    expect(afterSplash({ from: 42 }, '')).toBe('/home')
  })
})
