// The certificate catalogue: both languages hold the same keys, none blank,
// with the same {placeholders}, and no key the page catalogue also has.
import { describe, expect, it } from 'vitest'
import { certZhCN } from './cert'
import { certEn } from './en/cert'
import { zhCN } from './zh-CN'

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('cert catalogue', () => {
  it('is complete and consistent in both languages', () => {
    const zh: Record<string, string> = certZhCN
    const en: Record<string, string> = certEn
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort())
    for (const k of Object.keys(zh)) {
      expect(zh[k].trim(), k).not.toBe('')
      expect(en[k].trim(), k).not.toBe('')
      expect(placeholders(en[k]), k).toEqual(placeholders(zh[k]))
      expect(k in zhCN, k).toBe(false)
    }
  })
})
