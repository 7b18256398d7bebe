import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  base58Decode,
  checkBankName,
  checkCardNumber,
  checkHolder,
  checkUsdtAddress,
  compactCard,
  luhnValid,
  sha256,
  tronValid,
} from './payout'

const hex = (b: Uint8Array) => Buffer.from(b).toString('hex')

describe('sha256', () => {
  it('matches node:crypto on lengths around the block boundaries', () => {
    for (const n of [0, 1, 3, 55, 56, 63, 64, 65, 119, 120, 200]) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff)
      expect(hex(sha256(data))).toBe(createHash('sha256').update(data).digest('hex'))
    }
  })
})

describe('card numbers', () => {
  it('accepts Luhn-valid numbers of 12-19 digits, with spaces', () => {
    expect(luhnValid('4111111111111111')).toBe(true)
    expect(checkCardNumber('4111 1111 1111 1111')).toBeNull()
    expect(checkCardNumber('6011-1111-1111-1117')).toBeNull()
    expect(checkCardNumber('6250941006528599')).toBeNull()
  })
  it('refuses a wrong check digit, bad lengths and non-digits', () => {
    expect(checkCardNumber('4111111111111112')).toBe('cardChecksum')
    expect(checkCardNumber('')).toBe('required')
    expect(checkCardNumber('   ')).toBe('required')
    expect(checkCardNumber('41111111111')).toBe('cardLength') // 11 digits
    expect(checkCardNumber('41111111111111111111')).toBe('cardLength') // 20
    expect(checkCardNumber('4111a11111111111')).toBe('cardLength')
    expect(checkCardNumber('４１１１111111111111')).toBe('cardLength') // full-width digits
    expect(luhnValid('')).toBe(false)
    expect(compactCard(' 1 2-3 ')).toBe('123')
  })
})

describe('holder and bank names', () => {
  it('accepts names in any script', () => {
    expect(checkHolder('张三')).toBeNull()
    expect(checkHolder('阿卜杜·热合曼')).toBeNull()
    expect(checkHolder("Mary O'Neil")).toBeNull()
    expect(checkBankName('中国工商银行')).toBeNull()
  })
  it('refuses empty, short, long, digits and control characters', () => {
    expect(checkHolder(' ')).toBe('required')
    expect(checkHolder('张')).toBe('holder')
    expect(checkHolder('张三3')).toBe('holder')
    expect(checkHolder('张'.repeat(31))).toBe('holder')
    expect(checkHolder('张\u0000三')).toBe('holder')
    expect(checkHolder('-张三')).toBe('holder')
    expect(checkBankName('')).toBe('required')
    expect(checkBankName('行')).toBe('bankName')
    expect(checkBankName('工商\u0007银行')).toBe('bankName')
    expect(checkBankName('银'.repeat(31))).toBe('bankName')
  })
})

describe('USDT addresses', () => {
  const trc = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t' // the USDT contract on Tron
  it('accepts valid TRC20 and ERC20 addresses', () => {
    expect(tronValid(trc)).toBe(true)
    expect(checkUsdtAddress('TRC20', ` ${trc} `)).toBeNull()
    expect(checkUsdtAddress('ERC20', '0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBeNull()
  })
  it('refuses a changed character, a wrong prefix or length, and the other network', () => {
    expect(checkUsdtAddress('TRC20', trc.slice(0, -1) + 'u')).toBe('trc20') // checksum
    expect(checkUsdtAddress('TRC20', 'A' + trc.slice(1))).toBe('trc20')
    expect(checkUsdtAddress('TRC20', trc + '1')).toBe('trc20')
    expect(checkUsdtAddress('TRC20', trc.replace('N', '0'))).toBe('trc20') // 0 is not base58
    expect(checkUsdtAddress('TRC20', '0xdAC17F958D2ee523a2206206994597C13D831ec7')).toBe('trc20')
    expect(checkUsdtAddress('ERC20', trc)).toBe('erc20')
    expect(checkUsdtAddress('ERC20', '0xdAC17F958D2ee523a2206206994597C13D831ec')).toBe('erc20')
    expect(checkUsdtAddress('ERC20', '0xgAC17F958D2ee523a2206206994597C13D831ec7')).toBe('erc20')
    expect(checkUsdtAddress('ERC20', '')).toBe('required')
    expect(checkUsdtAddress('BEP20', trc)).toBe('network')
  })
  it('base58 keeps leading zero bytes and refuses foreign characters', () => {
    expect(Array.from(base58Decode('11')!)).toEqual([0, 0])
    expect(Array.from(base58Decode('1z')!)).toEqual([0, 57])
    expect(base58Decode('0')).toBeNull()
  })
})
