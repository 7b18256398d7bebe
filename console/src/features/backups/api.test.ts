import { describe, expect, it } from 'vitest'
import { bytes, every } from './api'

describe('backups', () => {
  it('says sizes in binary units', () => {
    expect(bytes(0)).toBe('0 B')
    expect(bytes(1023)).toBe('1023 B')
    expect(bytes(1536)).toBe('1.5 KB')
    expect(bytes(20387132)).toBe('19.4 MB')
    expect(bytes(3 * 1024 ** 4)).toBe('3.0 TB')
  })
  it('says the period in its largest whole unit', () => {
    expect(every(86400)).toEqual({ n: 24, unit: 'h' })
    expect(every(172800)).toEqual({ n: 2, unit: 'd' })
    expect(every(3600)).toEqual({ n: 1, unit: 'h' })
    expect(every(5400)).toEqual({ n: 90, unit: 'm' })
  })
})
