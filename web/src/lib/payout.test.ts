import { describe, expect, it } from 'vitest'
import {
  base58Decode,
  checkBankName,
  checkCardNumber,
  checkHolder,
  checkUsdtAddress,
  compactCard,
  erc20Valid,
  luhnValid,
  tronValid,
} from './payout'

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
  it('accepts what the server accepts', () => {
    expect(checkHolder('张')).toBeNull()
    expect(checkHolder('张三')).toBeNull()
    expect(checkHolder('阿卜杜·热合曼')).toBeNull()
    expect(checkHolder('Mary Jane')).toBeNull()
    expect(checkHolder('张'.repeat(30))).toBeNull()
    expect(checkBankName('中国工商银行')).toBeNull()
    expect(checkBankName('中国银行(上海分行)')).toBeNull()
    expect(checkBankName('招商银行（深圳）-1')).toBeNull()
  })
  it('refuses what the server refuses', () => {
    expect(checkHolder(' ')).toBe('required')
    expect(checkHolder('张三3')).toBe('holder')
    expect(checkHolder("O'Neil")).toBe('holder')
    expect(checkHolder('张'.repeat(31))).toBe('holder')
    expect(checkHolder('张\u0000三')).toBe('holder')
    expect(checkBankName('')).toBe('required')
    expect(checkBankName('行')).toBe('bankName')
    expect(checkBankName('工商\u0007银行')).toBe('bankName')
    expect(checkBankName('工商银行!')).toBe('bankName')
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
    // One letter's case flipped breaks the EIP-55 checksum.
    expect(checkUsdtAddress('ERC20', '0xDAC17F958D2ee523a2206206994597C13D831ec7')).toBe('erc20')
    expect(checkUsdtAddress('ERC20', '')).toBe('required')
    expect(checkUsdtAddress('BEP20', trc)).toBe('network')
  })
  it('EIP-55: the spec examples pass, one case are unchecked', () => {
    for (const a of [
      '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
      '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
    ])
      expect(erc20Valid(a), a).toBe(true)
    expect(erc20Valid('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed')).toBe(true)
    expect(erc20Valid('0X5AAEB6053F3E94C9B9A09F33669435E7EF1BEAED')).toBe(true)
    expect(erc20Valid('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD')).toBe(false)
  })
  it('base58 keeps leading zero bytes and refuses foreign characters', () => {
    expect(Array.from(base58Decode('11')!)).toEqual([0, 0])
    expect(Array.from(base58Decode('1z')!)).toEqual([0, 57])
    expect(base58Decode('0')).toBeNull()
  })
})
