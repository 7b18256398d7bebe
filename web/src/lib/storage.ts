// Local storage and cookies. Every key carries one prefix (DESIGN departure 5:
// the observed client used two with no rule). Values are JSON. Storage can
// throw (Safari private mode, quota, disabled cookies); the spec says such
// failures are swallowed, so every reader answers null and every writer
// gives up quietly.

export const PREFIX = 'prima_'

// The session token and device id are also kept in a cookie for a year, so
// they survive a cleared or unavailable localStorage (spec §3).
export const TOKEN_KEY = 'token'
export const CREDENTIAL_COOKIE_DAYS = 365

function local(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage
  } catch {
    // Reading the localStorage global itself throws when storage is disabled.
    return null
  }
}

export const storage = {
  get<T>(key: string): T | null {
    try {
      const raw = local()?.getItem(PREFIX + key)
      if (raw == null) return null
      return JSON.parse(raw) as T
    } catch {
      return null
    }
  },

  set(key: string, value: unknown): void {
    try {
      if (value === undefined) {
        local()?.removeItem(PREFIX + key)
        return
      }
      local()?.setItem(PREFIX + key, JSON.stringify(value))
    } catch {
      // quota exceeded or storage disabled: nothing to do but carry on
    }
  },

  remove(key: string): void {
    try {
      local()?.removeItem(PREFIX + key)
    } catch {
      // see set
    }
  },
}

function doc(): Document | null {
  return typeof document === 'undefined' ? null : document
}

export const cookie = {
  get(name: string): string | null {
    try {
      const all = doc()?.cookie
      if (!all) return null
      for (const part of all.split(';')) {
        const eq = part.indexOf('=')
        if (eq < 0) continue
        if (part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim())
      }
      return null
    } catch {
      return null
    }
  },

  set(name: string, value: string, days: number): void {
    const d = doc()
    if (!d) return
    try {
      const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : ''
      const maxAge = Math.max(0, Math.floor(days * 86400))
      d.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure}`
    } catch {
      // cookies disabled
    }
  },

  remove(name: string): void {
    cookie.set(name, '', 0)
  },
}

// setToken stores the session token (null logs out) in storage and cookie.
export function setToken(token: string | null): void {
  if (token) {
    storage.set(TOKEN_KEY, token)
    cookie.set(PREFIX + TOKEN_KEY, token, CREDENTIAL_COOKIE_DAYS)
  } else {
    storage.remove(TOKEN_KEY)
    cookie.remove(PREFIX + TOKEN_KEY)
  }
}

// getToken prefers storage and falls back to the cookie when storage lost it.
export function getToken(): string | null {
  const t = storage.get<unknown>(TOKEN_KEY)
  if (typeof t === 'string' && t !== '') return t
  return cookie.get(PREFIX + TOKEN_KEY) || null
}
