// A BlurHash decoder (https://blurha.sh, the algorithm's reference
// TypeScript), small enough to keep here rather than add a dependency: the
// server sends each picture's placeholder as a BlurHash string, and the page
// paints it as a tiny image while the real picture loads.
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~'

export function decode83(s: string): number {
  let v = 0
  for (const c of s) {
    const d = DIGITS.indexOf(c)
    if (d < 0) throw new Error(`blurhash: bad character ${c}`)
    v = v * 83 + d
  }
  return v
}

function toLinear(v: number): number {
  const x = v / 255
  return x <= 0.04045 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4)
}

function toSRGB(v: number): number {
  const x = Math.max(0, Math.min(1, v))
  return x <= 0.0031308 ? Math.trunc(x * 12.92 * 255 + 0.5) : Math.trunc((1.055 * Math.pow(x, 1 / 2.4) - 0.055) * 255 + 0.5)
}

function signPow(v: number, e: number): number {
  return Math.sign(v) * Math.pow(Math.abs(v), e)
}

// isBlurhash: the string has a valid size header and exactly the length it
// announces.
export function isBlurhash(hash: string): boolean {
  if (hash.length < 6) return false
  try {
    const size = decode83(hash[0])
    const nx = (size % 9) + 1
    const ny = Math.floor(size / 9) + 1
    decode83(hash)
    return hash.length === 4 + 2 * nx * ny
  } catch {
    return false
  }
}

// decodeBlurhash returns width*height RGBA pixels; it throws on a malformed
// hash (callers fall back to a flat colour).
export function decodeBlurhash(hash: string, width: number, height: number, punch = 1): Uint8ClampedArray<ArrayBuffer> {
  if (!isBlurhash(hash)) throw new Error('blurhash: malformed')
  const size = decode83(hash[0])
  const nx = (size % 9) + 1
  const ny = Math.floor(size / 9) + 1
  const maxValue = (decode83(hash[1]) + 1) / 166
  const colors: [number, number, number][] = []
  const dc = decode83(hash.slice(2, 6))
  colors.push([toLinear(dc >> 16), toLinear((dc >> 8) & 255), toLinear(dc & 255)])
  for (let i = 1; i < nx * ny; i++) {
    const v = decode83(hash.slice(4 + i * 2, 6 + i * 2))
    const q = (n: number) => signPow((n - 9) / 9, 2) * maxValue * punch
    colors.push([q(Math.floor(v / (19 * 19))), q(Math.floor(v / 19) % 19), q(v % 19)])
  }
  const out = new Uint8ClampedArray(new ArrayBuffer(width * height * 4))
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 0
      let g = 0
      let b = 0
      for (let j = 0; j < ny; j++) {
        for (let i = 0; i < nx; i++) {
          const basis = Math.cos((Math.PI * x * i) / width) * Math.cos((Math.PI * y * j) / height)
          const c = colors[i + j * nx]
          r += c[0] * basis
          g += c[1] * basis
          b += c[2] * basis
        }
      }
      const p = 4 * (x + y * width)
      out[p] = toSRGB(r)
      out[p + 1] = toSRGB(g)
      out[p + 2] = toSRGB(b)
      out[p + 3] = 255
    }
  }
  return out
}

// averageColor is the hash's DC component as a CSS colour, for the first
// paint before (or instead of) the decoded image.
export function averageColor(hash: string): string | undefined {
  if (!isBlurhash(hash)) return undefined
  const dc = decode83(hash.slice(2, 6))
  return `rgb(${dc >> 16}, ${(dc >> 8) & 255}, ${dc & 255})`
}

// A placeholder decodes once per hash; pages show the same covers again and
// again. The cache is bounded like the spec's image cache (200 entries).
const cache = new Map<string, string>()
const CACHE_MAX = 200
const SIZE = 32

// blurhashURL paints the hash on a 32x32 canvas and returns it as a data URL
// (stretched by CSS, which smooths it); undefined where there is no canvas
// or the hash is bad.
export function blurhashURL(hash: string | null | undefined): string | undefined {
  if (!hash) return undefined
  const hit = cache.get(hash)
  if (hit) return hit
  if (typeof document === 'undefined') return undefined
  try {
    const pixels = decodeBlurhash(hash, SIZE, SIZE)
    const canvas = document.createElement('canvas')
    canvas.width = SIZE
    canvas.height = SIZE
    const ctx = canvas.getContext('2d')
    if (!ctx) return undefined
    ctx.putImageData(new ImageData(pixels, SIZE, SIZE), 0, 0)
    const url = canvas.toDataURL('image/png')
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string)
    cache.set(hash, url)
    return url
  } catch {
    return undefined
  }
}
