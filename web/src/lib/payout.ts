// Checks of a payout account (bank card, USDT address) run in the browser
// before the form is sent. They mirror the server's (docs/api.md, *Payout
// accounts and withdrawals*) so a mistyped card number is caught at once;
// the server checks again and its answer wins.

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
  const sum = keccak256(new TextEncoder().encode(lower))
  for (let i = 0; i < 40; i++) {
    const c = body[i]
    if (c >= '0' && c <= '9') continue
    const nib = i % 2 === 0 ? sum[i >> 1] >> 4 : sum[i >> 1] & 0x0f
    if (nib >= 8 !== (c >= 'A' && c <= 'F')) return false
  }
  return true
}

// keccak256: Ethereum's Keccak-256 (the original padding 0x01, not SHA-3's
// 0x06), over 64-bit lanes held as BigInt: a few short inputs only.
const RC = [
  0x0000000000000001n, 0x0000000000008082n, 0x800000000000808an, 0x8000000080008000n, 0x000000000000808bn, 0x0000000080000001n,
  0x8000000080008081n, 0x8000000000008009n, 0x000000000000008an, 0x0000000000000088n, 0x0000000080008009n, 0x000000008000000an,
  0x000000008000808bn, 0x800000000000008bn, 0x8000000000008089n, 0x8000000000008003n, 0x8000000000008002n, 0x8000000000000080n,
  0x000000000000800an, 0x800000008000000an, 0x8000000080008081n, 0x8000000000008080n, 0x0000000080000001n, 0x8000000080008008n,
]
const ROT = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]
const M64 = (1n << 64n) - 1n
const rotl = (x: bigint, n: number) => (n === 0 ? x : ((x << BigInt(n)) | (x >> BigInt(64 - n))) & M64)

export function keccak256(data: Uint8Array): Uint8Array {
  const rate = 136
  const padded = new Uint8Array(Math.floor(data.length / rate) * rate + rate)
  padded.set(data)
  padded[data.length] ^= 0x01
  padded[padded.length - 1] ^= 0x80
  const st: bigint[] = new Array(25).fill(0n)
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i++) {
      let lane = 0n
      for (let b = 7; b >= 0; b--) lane = (lane << 8n) | BigInt(padded[off + i * 8 + b])
      st[i] ^= lane
    }
    for (let round = 0; round < 24; round++) {
      const c = [0, 1, 2, 3, 4].map((x) => st[x] ^ st[x + 5] ^ st[x + 10] ^ st[x + 15] ^ st[x + 20])
      for (let x = 0; x < 5; x++) {
        const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1)
        for (let y = 0; y < 25; y += 5) st[x + y] ^= d
      }
      const b: bigint[] = new Array(25)
      for (let x = 0; x < 5; x++) for (let y = 0; y < 5; y++) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(st[x + 5 * y], ROT[x + 5 * y])
      for (let x = 0; x < 5; x++) for (let y = 0; y < 25; y += 5) st[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & M64 & b[((x + 2) % 5) + y])
      st[0] ^= RC[round]
    }
  }
  const out = new Uint8Array(32)
  for (let i = 0; i < 4; i++) for (let b = 0; b < 8; b++) out[i * 8 + b] = Number((st[i] >> BigInt(8 * b)) & 0xffn)
  return out
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

// sha256 of bytes (FIPS 180-4). Synchronous and dependency-free: Web
// Crypto's digest is async and absent on plain-http origins.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01,
  0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc,
  0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
  0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08,
  0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
])

export function sha256(data: Uint8Array): Uint8Array {
  const len = data.length
  const padded = new Uint8Array(((len + 9 + 63) >> 6) << 6)
  padded.set(data)
  padded[len] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(len / 0x20000000))
  view.setUint32(padded.length - 4, (len << 3) >>> 0)
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19])
  const w = new Uint32Array(64)
  const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n))
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4)
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3)
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10)
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0
    }
    let [a, b, c, d, e, f, g, hh] = h
    for (let i = 0; i < 64; i++) {
      const S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
      const ch = (e & f) ^ (~e & g)
      const t1 = (hh + S1 + ch + K[i] + w[i]) >>> 0
      const S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
      const maj = (a & b) ^ (a & c) ^ (b & c)
      const t2 = (S0 + maj) >>> 0
      hh = g
      g = f
      f = e
      e = (d + t1) >>> 0
      d = c
      c = b
      b = a
      a = (t1 + t2) >>> 0
    }
    h[0] += a
    h[1] += b
    h[2] += c
    h[3] += d
    h[4] += e
    h[5] += f
    h[6] += g
    h[7] += hh
  }
  const out = new Uint8Array(32)
  const ov = new DataView(out.buffer)
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, h[i])
  return out
}
