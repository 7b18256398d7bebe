// The message catalogues stay complete, the pages' and each side one: the
// same keys in zh-CN and en, no blank message, the same {placeholders},
// and every literal t('key') in the pages, shell and components is defined.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasMessage } from '@/i18n'
import { zhCN as zhCNTyped } from '@/i18n/zh-CN'
import { en as enTyped } from '@/i18n/en'
import { payEn, payZhCN } from '@/i18n/pay'
import { wdEn, wdZhCN } from '@/i18n/withdraw'
import { profileEn, profileZhCN } from '@/i18n/profile'
import { supEn, supZhCN } from '@/i18n/support'
import { msgEn, msgZhCN } from '@/i18n/messages'
import { waysEn, waysZhCN } from '@/i18n/ways'
import { certEn, certZhCN } from '@/i18n/cert'
import { wfEn, wfZhCN } from '@/i18n/welfare'
import { codesEn, codesZhCN } from '@/i18n/codes'
import { inviteEn, inviteZhCN } from '@/i18n/invite'
import { commEn, commZhCN } from '@/i18n/community'
import { pubEn, pubZhCN } from '@/i18n/publish'
import { postEn, postZhCN } from '@/i18n/post'
import { searchEn, searchZhCN } from '@/i18n/search'

// The side catalogues: each feature group keeps its strings in a file of
// its own, in both languages, with no key of the pages' catalogue.
const SIDE: [string, Record<string, string>, Record<string, string>][] = [
  ['wallet-pay', payZhCN, payEn],
  ['withdraw', wdZhCN, wdEn],
  ['people', profileZhCN, profileEn],
  ['support', supZhCN, supEn],
  ['messages', msgZhCN, msgEn],
  ['ways', waysZhCN, waysEn],
  ['cert', certZhCN, certEn],
  ['welfare', wfZhCN, wfEn],
  ['codes', codesZhCN, codesEn],
  ['invite', inviteZhCN, inviteEn],
  ['community', commZhCN, commEn],
  ['publish', pubZhCN, pubEn],
  ['post', postZhCN, postEn],
  ['search', searchZhCN, searchEn],
]

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

  it.each(SIDE)('the %s catalogue: same keys, no blanks, same placeholders, no key shared with the pages', (_, zh, e) => {
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

  it('every literal key used in the source is defined', () => {
    const used = new Set<string>()
    for (const dir of OWNED) {
      for (const f of files(join(SRC, dir))) {
        for (const m of readFileSync(f, 'utf8').matchAll(/\bt\(\s*'([^']+)'/g)) used.add(m[1])
      }
    }
    expect(used.size).toBeGreaterThan(50)
    const missing = [...used].filter((k) => !hasMessage(k))
    expect(missing).toEqual([])
  })
})
