import { describe, expect, it } from 'vitest'
import { en, zh } from './messages'
import { translate } from './index'

describe('messages', () => {
  it('has every key in both languages, none blank', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort())
    for (const [k, v] of [...Object.entries(zh), ...Object.entries(en)]) expect(v.trim(), k).not.toBe('')
  })
  it('uses the same placeholders in both languages', () => {
    const holes = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const k of Object.keys(zh) as (keyof typeof zh)[]) expect(holes(en[k]), k).toEqual(holes(zh[k]))
  })
  it('fills placeholders and leaves unknown ones', () => {
    expect(translate('zh-CN', 'people.revoked', { n: 3 })).toBe('已下线 3 个会话')
    expect(translate('en', 'people.revoked', { n: 3 })).toBe('3 sessions ended')
    expect(translate('en', 'people.revoked', {})).toBe('{n} sessions ended')
  })
})
