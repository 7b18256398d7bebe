import { afterEach, describe, expect, it, vi } from 'vitest'
import { normalizeCode, recoveryFile } from './codes'
import { diffFields } from './diff'
import { cursorOf, firstPage, newer, older } from './pager'
import { formatTime, toMillis, toRFC3339 } from './time'
import { clearSession, onSessionChange, readSession, saveSession, token } from './session-store'
import { ApiError } from './api'
import { enrolmentOf } from './session'

describe('normalizeCode', () => {
  it('reads a TOTP code with stray spaces', () => {
    expect(normalizeCode(' 123 456 ')).toEqual({ kind: 'totp', code: '123456' })
  })
  it('reads a recovery code with or without its dash, in any case', () => {
    expect(normalizeCode('AB2C-9XYZ')).toEqual({ kind: 'recovery', code: 'ab2c-9xyz' })
    expect(normalizeCode('ab2c9xyz')).toEqual({ kind: 'recovery', code: 'ab2c-9xyz' })
  })
  it('refuses anything else', () => {
    for (const bad of ['', '12345', '1234567', 'abc-defg', 'ab2c_9xyz', '12345６', 'ab2c-9xyz-1']) expect(normalizeCode(bad)).toBeNull()
  })
  it('writes a recovery file with every code on its own line', () => {
    const text = recoveryFile('ops_1', ['aaaa-bbbb', 'cccc-dddd'], new Date(Date.UTC(2026, 0, 2)))
    expect(text.split('\n')).toContain('aaaa-bbbb')
    expect(text.split('\n')).toContain('cccc-dddd')
    expect(text).toContain('ops_1')
    expect(text).toContain('2026-01-02T00:00:00.000Z')
  })
})

describe('diffFields', () => {
  it('marks changed, added, removed and unchanged fields', () => {
    const d = diffFields({ role: 'content', name: 'a', gone: 1 }, { role: 'owner', name: 'a', fresh: [1, 2] })
    expect(d).toEqual([
      { key: 'fresh', before: null, after: '[1,2]', change: 'added' },
      { key: 'gone', before: '1', after: null, change: 'removed' },
      { key: 'name', before: '"a"', after: '"a"', change: 'same' },
      { key: 'role', before: '"content"', after: '"owner"', change: 'changed' },
    ])
  })
  it('reads JSON text, null sides and scalars', () => {
    expect(diffFields(null, '{"role":"owner"}')).toEqual([{ key: 'role', before: null, after: '"owner"', change: 'added' }])
    expect(diffFields({ a: 1 }, null)).toEqual([{ key: 'a', before: '1', after: null, change: 'removed' }])
    expect(diffFields(3, 4)).toEqual([{ key: 'value', before: '3', after: '4', change: 'changed' }])
    expect(diffFields('not json', null)).toEqual([{ key: 'value', before: '"not json"', after: null, change: 'removed' }])
    expect(diffFields(null, undefined)).toEqual([])
  })
  it('compares nested objects whatever their key order', () => {
    expect(diffFields({ o: { a: 1, b: 2 } }, { o: { b: 2, a: 1 } })[0].change).toBe('same')
  })
})

describe('pager', () => {
  it('walks older and back newer through the cursors it has seen', () => {
    let p = firstPage
    expect(cursorOf(p)).toBeNull()
    p = older(p, 'c2')
    p = older(p, 'c3')
    expect(cursorOf(p)).toBe('c3')
    p = newer(p)
    expect(cursorOf(p)).toBe('c2')
    // going older again from page 2 forgets the branch it left
    p = older(p, 'c3b')
    expect(p.cursors).toEqual([null, 'c2', 'c3b'])
    expect(newer(newer(newer(p)))).toEqual({ cursors: [null, 'c2', 'c3b'], index: 0 })
  })
  it('stays on the last page when there is no next cursor', () => {
    expect(older(firstPage, null)).toBe(firstPage)
    expect(older(firstPage, '')).toBe(firstPage)
  })
})

describe('time', () => {
  it('reads unix seconds, milliseconds and date text', () => {
    expect(toMillis(1_700_000_000)).toBe(1_700_000_000_000)
    expect(toMillis(1_700_000_000_123)).toBe(1_700_000_000_123)
    expect(toMillis('1700000000')).toBe(1_700_000_000_000)
    expect(toMillis('2026-01-02T03:04:05Z')).toBe(Date.UTC(2026, 0, 2, 3, 4, 5))
    expect(toMillis('soon')).toBeNull()
    expect(toMillis(null)).toBeNull()
    expect(toMillis('')).toBeNull()
  })
  it('formats in the local zone and says — for nothing', () => {
    const ms = new Date(2026, 4, 6, 7, 8, 9).getTime()
    expect(formatTime(ms)).toBe('2026-05-06 07:08:09')
    expect(formatTime(null)).toBe('—')
    expect(toRFC3339(Date.UTC(2026, 0, 2, 3, 4, 5, 678))).toBe('2026-01-02T03:04:05Z')
  })
})

describe('session store', () => {
  const mem = new Map<string, string>()
  afterEach(() => {
    mem.clear()
    vi.unstubAllGlobals()
  })
  const stub = () =>
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => mem.get(k) ?? null,
      setItem: (k: string, v: string) => void mem.set(k, v),
      removeItem: (k: string) => void mem.delete(k),
    })

  it('keeps the token until it is cleared or its end has passed', () => {
    stub()
    const seen = vi.fn()
    const off = onSessionChange(seen)
    expect(token()).toBeNull()
    saveSession({ token: 'ct_1', expiresAt: '2999-01-01T00:00:00Z' })
    expect(token()).toBe('ct_1')
    expect(readSession(Date.UTC(3000, 0, 1))).toBeNull()
    clearSession()
    expect(token()).toBeNull()
    expect(seen).toHaveBeenCalledTimes(2)
    off()
  })

  it('never reads the phone app token nor a damaged entry', () => {
    stub()
    mem.set('prima_token', JSON.stringify('phone-token'))
    expect(token()).toBeNull()
    mem.set('prima_console_session', '{oops')
    expect(token()).toBeNull()
    mem.set('prima_console_session', JSON.stringify({ token: '' }))
    expect(token()).toBeNull()
  })
})

describe('enrolmentOf', () => {
  const err = (status: number, data: unknown) => new ApiError({ status, code: status, tip: '', msg: '', data, kind: 'http' })
  it('reads the ticket, secret and otpauth URL of a 428', () => {
    const enrol = { ticket: 't1', secret: 'JBSWY3DP', otpauthURL: 'otpauth://totp/Prima:ops?secret=JBSWY3DP' }
    expect(enrolmentOf(err(428, { enrol }))).toEqual(enrol)
  })
  it('is null for other answers or a malformed 428', () => {
    expect(enrolmentOf(err(401, { enrol: { ticket: 't', secret: 's', otpauthURL: 'u' } }))).toBeNull()
    expect(enrolmentOf(err(428, null))).toBeNull()
    expect(enrolmentOf(err(428, { enrol: { ticket: 't' } }))).toBeNull()
    expect(enrolmentOf(new Error('x'))).toBeNull()
  })
})

import { safeNext } from './nav'

describe('safeNext', () => {
  it('keeps a path of the console', () => {
    expect(safeNext('/audit?action=user.role')).toBe('/audit?action=user.role')
    expect(safeNext('/people')).toBe('/people')
  })
  it('sends anything else to the overview', () => {
    for (const bad of [null, '', 'https://evil.example', '//evil.example/x', '/\\evil', 'audit', '/login', '/login?next=/x', '/a\nb']) expect(safeNext(bad)).toBe('/')
  })
})
