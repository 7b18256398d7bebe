import { afterEach, describe, expect, it, vi } from 'vitest'
import { currentPlatform, detectPlatform, gateDecision, type GateMode, type Platform } from './platform'

const UA = {
  iphone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  ipadMobile:
    'Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/12.1 Mobile/15E148 Safari/604.1',
  ipadDesktop:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
  wechatIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 16_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.40(0x18002831) NetType/WIFI Language/zh_CN',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  harmony:
    'Mozilla/5.0 (Phone; OpenHarmony 4.1) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/114.0.0.0 Safari/537.36 ArkWeb/4.1.6.1 Mobile',
  windows:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  linux: 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0',
}

describe('detectPlatform', () => {
  it('finds iOS devices', () => {
    expect(detectPlatform(UA.iphone)).toBe('ios')
    expect(detectPlatform(UA.ipadMobile)).toBe('ios')
    expect(detectPlatform(UA.wechatIos)).toBe('ios')
  })

  it('tells iPadOS desktop mode from a Mac by touch points', () => {
    expect(detectPlatform(UA.ipadDesktop, 5)).toBe('ios')
    expect(detectPlatform(UA.ipadDesktop, 2)).toBe('ios')
    expect(detectPlatform(UA.ipadDesktop, 1)).toBe('pc')
    expect(detectPlatform(UA.ipadDesktop, 0)).toBe('pc')
    expect(detectPlatform(UA.ipadDesktop)).toBe('pc')
  })

  it('finds Android and HarmonyOS', () => {
    expect(detectPlatform(UA.android)).toBe('android')
    expect(detectPlatform(UA.harmony)).toBe('android')
  })

  it('calls everything else pc, touch screen or not', () => {
    expect(detectPlatform(UA.windows)).toBe('pc')
    expect(detectPlatform(UA.windows, 10)).toBe('pc')
    expect(detectPlatform(UA.linux)).toBe('pc')
    expect(detectPlatform('')).toBe('pc')
    expect(detectPlatform(undefined)).toBe('pc')
  })
})

describe('currentPlatform', () => {
  afterEach(() => vi.unstubAllGlobals())
  it('reads navigator', () => {
    vi.stubGlobal('navigator', { userAgent: UA.ipadDesktop, maxTouchPoints: 5 })
    expect(currentPlatform()).toBe('ios')
    vi.stubGlobal('navigator', undefined)
    expect(currentPlatform()).toBe('pc')
  })
})

describe('gateDecision', () => {
  const table: [GateMode, Platform, 'pass' | 'gated'][] = [
    ['off', 'ios', 'pass'],
    ['off', 'android', 'pass'],
    ['off', 'pc', 'pass'],
    ['mobile', 'ios', 'pass'],
    ['mobile', 'android', 'pass'],
    ['mobile', 'pc', 'gated'],
    ['ios', 'ios', 'pass'],
    ['ios', 'android', 'gated'],
    ['ios', 'pc', 'gated'],
  ]
  it.each(table)('mode %s, %s -> %s', (mode, platform, want) => {
    if (want === 'pass') {
      expect(gateDecision(mode, platform)).toBe('pass')
      expect(gateDecision(mode, platform, 'https://example.com')).toBe('pass')
    } else {
      expect(gateDecision(mode, platform)).toBe('qr')
      expect(gateDecision(mode, platform, '')).toBe('qr')
      expect(gateDecision(mode, platform, 'https://example.com/x')).toBe('redirect')
    }
  })

  it('redirects only to an absolute http(s) URL', () => {
    expect(gateDecision('ios', 'pc', 'http://example.com')).toBe('redirect')
    expect(gateDecision('ios', 'pc', '  https://example.com  ')).toBe('redirect')
    expect(gateDecision('ios', 'pc', '   ')).toBe('qr')
    expect(gateDecision('ios', 'pc', 'javascript:alert(1)')).toBe('qr')
    expect(gateDecision('ios', 'pc', 'example.com')).toBe('qr')
    expect(gateDecision('ios', 'pc', 'https://')).toBe('qr')
    expect(gateDecision('ios', 'pc', null)).toBe('qr')
  })

  it('treats an unknown mode as off', () => {
    expect(gateDecision('everyone', 'pc')).toBe('pass')
    expect(gateDecision(undefined, 'pc')).toBe('pass')
  })
})
