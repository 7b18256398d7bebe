// Every bill type the server can list has a chip label and a title in
// both languages: a raw key such as `task` never shows on a bill.
import { describe, expect, it } from 'vitest'
import { hasMessage, loadLang, translate } from '@/i18n'
import { COIN_BILL_TYPES, INCOME_TYPES } from './types'

describe('bill types', () => {
  const types = [...new Set<string>([...COIN_BILL_TYPES, ...INCOME_TYPES])]

  it('lists the welfare coins on the coin bill', () => {
    for (const ty of ['checkin', 'task', 'prize', 'invite', 'code']) expect(COIN_BILL_TYPES).toContain(ty)
  })

  it('has a zh-CN and an en chip and title for each', async () => {
    await loadLang('en')
    for (const ty of types) {
      for (const key of [`rec.type.${ty}`, `rec.title.${ty}`]) {
        expect(hasMessage(key), key).toBe(true)
        if (!hasMessage(key)) continue
        const zh = translate('zh-CN', key)
        const en = translate('en', key)
        expect(zh, key).toMatch(/^[\u4e00-\u9fff]+$/)
        expect(en, key).not.toBe(zh)
        expect(en, key).not.toBe(ty)
        expect(en, key).toMatch(/^[A-Z]/)
      }
    }
  })
})
