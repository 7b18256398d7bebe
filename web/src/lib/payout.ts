// Checks of a payout account (bank card, USDT address) run in the browser
// before the form is sent. They mirror the server's (docs/api.md, *Payout
// accounts and withdrawals*) so a mistyped card number is caught at once;
// the server checks again and its answer wins.
//
// The address checksums hash with @noble/hashes (audited, no dependencies;
// keccak_256 is Ethereum's Keccak, not SHA-3). Only the payout pages import
// this module, so the hashes stay out of the initial JS.
import { sha256 } from '@noble/hashes/sha2.js'
import { keccak_256 } from '@noble/hashes/sha3.js'

export type PayoutProblem =
  | 'required'
  | 'cardLength'
  | 'cardChecksum'
  | 'holder'
  | 'bankName'
  | 'trc20'
  | 'erc20'
  | 'network'

// compactCard drops the spaces and dashes people type between digit groups.
export function compactCard(text: string): string {
  return text.replace(/[\s-]/g, '')
}

// luhnValid: the card number's check digit (ISO/IEC 7812).
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48
    if (i % 2 === 1) {
      d *= 2
      if (d > 9) d -= 9
    }
    sum += d
  }
  return sum % 10 === 0
}

// checkCardNumber: 12-19 digits (spaces allowed while typing) with a valid
// Luhn digit.
export function checkCardNumber(text: string): PayoutProblem | null {
  const n = compactCard(text)
  if (n === '') return 'required'
  if (!/^\d{12,19}$/.test(n)) return 'cardLength'
  return luhnValid(n) ? null : 'cardChecksum'
}

// A holder's name (server: wallet.CheckHolder): 1-30 characters of letters
// of any script, spaces and the middle dot of transliterated names (· or •).
const HOLDER = /^[\p{L} ·•]+$/u

export function checkHolder(text: string): PayoutProblem | null {
  const s = text.trim()
  if (s === '') return 'required'
  if ([...s].length > 30 || !HOLDER.test(s)) return 'holder'
  return null
}

// A bank's name (server: wallet.CheckBankName): 2-30 characters of letters,
// digits, spaces, brackets, "·" and "-" ("中国银行(上海分行)").
const BANK = /^[\p{L}\p{Nd} ()（）·-]+$/u

export function checkBankName(text: string): PayoutProblem | null {
  const s = text.trim()
  if (s === '') return 'required'
  const n = [...s].length
  if (n < 2 || n > 30 || !BANK.test(s)) return 'bankName'
  return null
}

export type UsdtNetwork = 'TRC20' | 'ERC20'

// checkUsdtAddress (server: wallet.CheckTRC20 / CheckERC20): TRC20 is a
// Tron base58check address ("T", 34 characters, 21 bytes starting 0x41 plus
// a 4-byte double-SHA-256 checksum); ERC20 is "0x" and 40 hex digits, and
// mixed case must match its EIP-55 checksum.
export function checkUsdtAddress(network: string, text: string): PayoutProblem | null {
  const s = text.trim()
  if (s === '') return 'required'
  if (network === 'TRC20') return tronValid(s) ? null : 'trc20'
  if (network === 'ERC20') return erc20Valid(s) ? null : 'erc20'
  return 'network'
}

// erc20Valid: "0x" + 40 hex digits; all lower or all upper case carries no
// checksum, mixed case must follow EIP-55 (a letter is upper case exactly
// when the matching nibble of keccak-256 of the lower-case hex is >= 8).
export function erc20Valid(s: string): boolean {
  if (!/^0[xX][0-9a-fA-F]{40}$/.test(s)) return false
  const body = s.slice(2)
  const lower = body.toLowerCase()
  if (body === lower || body === body.toUpperCase()) return true
  const sum = keccak_256(new TextEncoder().encode(lower))
  for (let i = 0; i < 40; i++) {
    const c = body[i]
    if (c >= '0' && c <= '9') continue
    const nib = i % 2 === 0 ? sum[i >> 1] >> 4 : sum[i >> 1] & 0x0f
    if (nib >= 8 !== (c >= 'A' && c <= 'F')) return false
  }
  return true
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'

// base58Decode: bytes of a base58 string, or null for a character outside
// the alphabet.
export function base58Decode(s: string): Uint8Array | null {
  const bytes: number[] = []
  for (const ch of s) {
    let carry = B58.indexOf(ch)
    if (carry < 0) return null
    for (let i = 0; i < bytes.length; i++) {
      carry += bytes[i] * 58
      bytes[i] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      bytes.push(carry & 0xff)
      carry >>= 8
    }
  }
  for (const ch of s) {
    if (ch !== '1') break
    bytes.push(0)
  }
  return Uint8Array.from(bytes.reverse())
}

export function tronValid(s: string): boolean {
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(s)) return false
  const raw = base58Decode(s)
  if (!raw || raw.length !== 25 || raw[0] !== 0x41) return false
  const body = raw.subarray(0, 21)
  const sum = sha256(sha256(body))
  for (let i = 0; i < 4; i++) if (sum[i] !== raw[21 + i]) return false
  return true
}
