// The two page catalogues stay complete: the same keys in zh-CN and en, no
// blank message, the same {placeholders}, and every literal t('key') in
// the pages, shell and components is defined.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { zhCN as zhCNTyped } from '@/i18n/zh-CN'
import { en as enTyped } from '@/i18n/en'
import { libZhCN } from '@/i18n/lib'
import { payEn, payZhCN } from '@/i18n/pay'
import { wdEn, wdZhCN } from '@/i18n/withdraw'

// Indexed by any string here: the test looks for keys the types cannot see.
const zhCN: Record<string, string> = zhCNTyped
const en: Record<string, string> = enTyped

const SRC = join(__dirname, '..')
// src/lib keeps its own strings (i18n/lib.ts) and is checked by its owner.
const OWNED = ['app', 'features', 'components', 'stores']

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f)
    if (statSync(p).isDirectory()) return files(p)
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : []
  })
}

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()

describe('message catalogues', () => {
  it('zh-CN and en hold the same keys', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zhCN).sort())
  })

  it('the wallet-pay catalogue: same keys, no blanks, same placeholders, no key shared with the pages', () => {
    const zh: Record<string, string> = payZhCN
    const e: Record<string, string> = payEn
    expect(Object.keys(e).sort()).toEqual(Object.keys(zh).sort())
    for (const k of Object.keys(zh)) {
      expect(zh[k].trim(), k).not.toBe('')
      expect(e[k].trim(), k).not.toBe('')
      expect(placeholders(e[k]), k).toEqual(placeholders(zh[k]))
      expect(k in zhCN, k).toBe(false)
    }
  })

  it('no message is blank and both languages use the same placeholders', () => {
    for (const k of Object.keys(zhCN)) {
      expect(zhCN[k].trim(), k).not.toBe('')
      expect(en[k]?.trim(), k).not.toBe('')
      expect(placeholders(en[k]), k).toEqual(placeholders(zhCN[k]))
    }
  })

  it('the withdraw catalogue has the same placeholders in both languages and no key of the pages', () => {
    const wz: Record<string, string> = wdZhCN
    const we: Record<string, string> = wdEn
    expect(Object.keys(we).sort()).toEqual(Object.keys(wz).sort())
    for (const k of Object.keys(wz)) {
      expect(wz[k].trim(), k).not.toBe('')
      expect(placeholders(we[k]), k).toEqual(placeholders(wz[k]))
      expect(k in zhCN, k).toBe(false)
    }
  })

  it('every literal key used in the source is defined', () => {
    const used = new Set<string>()
    for (const dir of OWNED) {
      for (const f of files(join(SRC, dir))) {
        for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([^']+)'/g)) used.add(m[1])
      }
    }
    expect(used.size).toBeGreaterThan(50)
    const missing = [...used].filter((k) => !(k in zhCN) && !(k in libZhCN) && !(k in payZhCN) && !(k in wdZhCN))
    expect(missing).toEqual([])
  })
})
