// The message catalogues stay complete, the pages' and each side one: the
// same keys in zh-CN and en, no blank message, the same {placeholders},
// and every literal t('key') in the pages, shell and components is defined.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { hasMessage } from '@/i18n'
import { en as enChunk } from '@/i18n/en'
import { libEn } from '@/i18n/en/lib'
import { zhCN as zhCNTyped } from '@/i18n/zh-CN'
import { en as enTyped } from '@/i18n/en/pages'
import { payZhCN } from '@/i18n/pay'
import { payEn } from '@/i18n/en/pay'
import { wdZhCN } from '@/i18n/withdraw'
import { wdEn } from '@/i18n/en/withdraw'
import { profileZhCN } from '@/i18n/profile'
import { profileEn } from '@/i18n/en/profile'
import { supZhCN } from '@/i18n/support'
import { supEn } from '@/i18n/en/support'
import { msgZhCN } from '@/i18n/messages'
import { msgEn } from '@/i18n/en/messages'
import { waysZhCN } from '@/i18n/ways'
import { waysEn } from '@/i18n/en/ways'
import { certZhCN } from '@/i18n/cert'
import { certEn } from '@/i18n/en/cert'
import { wfZhCN } from '@/i18n/welfare'
import { wfEn } from '@/i18n/en/welfare'
import { codesZhCN } from '@/i18n/codes'
import { codesEn } from '@/i18n/en/codes'
import { inviteZhCN } from '@/i18n/invite'
import { inviteEn } from '@/i18n/en/invite'
import { commZhCN } from '@/i18n/community'
import { commEn } from '@/i18n/en/community'
import { pubZhCN } from '@/i18n/publish'
import { pubEn } from '@/i18n/en/publish'
import { postZhCN } from '@/i18n/post'
import { postEn } from '@/i18n/en/post'
import { searchZhCN } from '@/i18n/search'
import { searchEn } from '@/i18n/en/search'
// Installs its zh-CN strings (provide) as the earnings pages' imports do.
import { earnZhCN } from '@/i18n/earn'
import { earnEn } from '@/i18n/en/earn'

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
  ['earn', earnZhCN, earnEn],
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

  // i18n/en/index.ts is what loadLang('en') installs: every file's English.
  it('the English chunk holds every English message', () => {
    for (const part of [en, libEn, ...SIDE.map(([, , e]) => e)]) {
      for (const [k, v] of Object.entries(part)) expect(enChunk[k], k).toBe(v)
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

  // The earnings strings are installed by i18n/earn.ts when a page imports
  // it, not by the first chunk: a module that used an earn.* key without
  // that import would show the key itself in zh-CN.
  it('every module with an earn.* key imports the earnings catalogue', () => {
    const without: string[] = []
    let users = 0
    for (const dir of OWNED) {
      for (const f of files(join(SRC, dir))) {
        const text = readFileSync(f, 'utf8')
        if (!/'earn\.[\w.]+'/.test(text)) continue
        users++
        if (!text.includes("import '@/i18n/earn'")) without.push(f)
      }
    }
    expect(users).toBeGreaterThan(5)
    expect(without).toEqual([])
  })

  it('keeps the earnings strings out of the first chunk', () => {
    const index = readFileSync(join(SRC, 'i18n/index.ts'), 'utf8')
    expect(index).toMatch(/import type \{ EarnKey \} from '\.\/earn'/)
    expect(index).not.toMatch(/^import \{[^}]*\} from '\.\/earn'/m)
  })
})
