// loadLang: zh-CN is bundled and ready at once; English is a chunk that is
// imported once, the first time it is wanted, and t() answers in zh-CN
// until it is there. Each test takes a fresh copy of the module.
import { beforeEach, describe, expect, it, vi } from 'vitest'

let i18n: typeof import('./index')

beforeEach(async () => {
  vi.resetModules()
  i18n = await import('./index')
})

describe('loadLang', () => {
  it('has zh-CN ready at once', async () => {
    let done = false
    const p = i18n.loadLang('zh-CN').then(() => (done = true))
    await Promise.resolve()
    expect(done).toBe(true)
    await p
    expect(i18n.t('tab.home')).toBe('首页')
  })

  it('installs English: zh-CN before, English after', async () => {
    i18n.setLang('en')
    expect(i18n.t('tab.home')).toBe('首页')
    expect(i18n.translate('en', 'net.offline')).toBe('网络连接失败，请检查网络')
    await i18n.loadLang('en')
    expect(i18n.t('tab.home')).toBe('Home')
    expect(i18n.t('net.offline')).toBe('Network error, please check your connection')
    expect(i18n.t('time.countK', { n: 12 })).toBe('12k')
    expect(i18n.translate('zh-CN', 'tab.home')).toBe('首页')
  })

  it('imports English once', async () => {
    const first = i18n.loadLang('en')
    expect(i18n.loadLang('en')).toBe(first)
    await first
    expect(i18n.loadLang('en')).toBe(first)
  })

  it('tries again after a failed import, and stays in zh-CN meanwhile', async () => {
    vi.doMock('./en', () => {
      throw new Error('offline')
    })
    await expect(i18n.loadLang('en')).rejects.toThrow()
    i18n.setLang('en')
    expect(i18n.t('tab.home')).toBe('首页')
    vi.doUnmock('./en')
    await i18n.loadLang('en')
    expect(i18n.t('tab.home')).toBe('Home')
  })
})
