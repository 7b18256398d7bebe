// Test doubles for the browser globals src/lib touches. Vitest runs in node
// (no jsdom), so tests install these with vi.stubGlobal.

// MemoryStorage is a Storage backed by a Map; `broken` makes every call
// throw, as Safari's private mode and a full quota do.
export class MemoryStorage implements Storage {
  map = new Map<string, string>()
  broken = false

  get length() {
    return this.map.size
  }
  clear() {
    this.check()
    this.map.clear()
  }
  getItem(key: string) {
    this.check()
    return this.map.has(key) ? this.map.get(key)! : null
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null
  }
  removeItem(key: string) {
    this.check()
    this.map.delete(key)
  }
  setItem(key: string, value: string) {
    this.check()
    this.map.set(key, String(value))
  }
  private check() {
    if (this.broken) throw new DOMException('storage disabled', 'SecurityError')
  }
}

// CookieJar mimics document.cookie: writing sets or (Max-Age<=0) deletes one
// cookie, reading joins all of them. `writes` keeps the raw strings so tests
// can check the attributes.
export class CookieJar {
  jar = new Map<string, string>()
  writes: string[] = []

  get cookie(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ')
  }
  set cookie(s: string) {
    this.writes.push(s)
    const [pair, ...attrs] = s.split(';')
    const eq = pair.indexOf('=')
    const name = pair.slice(0, eq).trim()
    const value = pair.slice(eq + 1).trim()
    const maxAge = attrs.map((a) => a.trim()).find((a) => a.toLowerCase().startsWith('max-age='))
    if (maxAge && Number(maxAge.split('=')[1]) <= 0) this.jar.delete(name)
    else this.jar.set(name, value)
  }
}
