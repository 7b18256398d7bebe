import { describe, expect, it } from 'vitest'
import {
  certificateDate,
  certificateFileName,
  certificateLink,
  credentialFromLocation,
  hasCredentialParams,
  isQrCnt,
  parseCertificateLink,
  pictureProblem,
} from './certificate'

const q = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123-_x'

describe('account certificate links', () => {
  it('a credential is 43 base64url characters', () => {
    expect(q).toHaveLength(43)
    expect(isQrCnt(q)).toBe(true)
    expect(isQrCnt(q.slice(1))).toBe(false)
    expect(isQrCnt(q.slice(1) + '=')).toBe(false)
    expect(isQrCnt(q.slice(1) + '+')).toBe(false)
    expect(isQrCnt(42)).toBe(false)
  })

  it('builds a link that carries the credential in the fragment and reads it back', () => {
    const link = certificateLink('https://app.example/', { uid: 42, qrCnt: q })
    expect(link).toBe(`https://app.example/mine/login#uid=42&qrCnt=${q}`)
    expect(parseCertificateLink(link)).toEqual({ uid: 42, qrCnt: q })
  })

  it('reads the query form and any origin', () => {
    expect(parseCertificateLink(`http://10.0.0.1:8080/mine/login?qrCnt=${q}&uid=7`)).toEqual({ uid: 7, qrCnt: q })
    expect(parseCertificateLink(`  https://x.example/mine/login/#uid=7&qrCnt=${q} `)).toEqual({ uid: 7, qrCnt: q })
  })

  it('refuses other links, bad uids and bad credentials', () => {
    for (const text of [
      `https://app.example/mine/register#uid=7&qrCnt=${q}`,
      `https://app.example/mine/login#uid=0&qrCnt=${q}`,
      `https://app.example/mine/login#uid=-7&qrCnt=${q}`,
      `https://app.example/mine/login#uid=07&qrCnt=${q}`,
      `https://app.example/mine/login#uid=1e3&qrCnt=${q}`,
      `https://app.example/mine/login#uid=99999999999999999&qrCnt=${q}`,
      `https://app.example/mine/login#uid=7&qrCnt=${q.slice(2)}`,
      `https://app.example/mine/login#uid=7`,
      'hello',
      '',
    ]) {
      expect(parseCertificateLink(text), text).toBeNull()
    }
  })

  it('reads the page address, fragment before query', () => {
    expect(credentialFromLocation({ search: '', hash: `#uid=3&qrCnt=${q}` })).toEqual({ uid: 3, qrCnt: q })
    expect(credentialFromLocation({ search: `?uid=4&qrCnt=${q}`, hash: '' })).toEqual({ uid: 4, qrCnt: q })
    expect(credentialFromLocation({ search: '?from=x', hash: '' })).toBeNull()
    expect(hasCredentialParams({ search: '?qrCnt=broken', hash: '' })).toBe(true)
    expect(hasCredentialParams({ search: '?uid=1', hash: '#top' })).toBe(false)
  })

  it('checks a picture before uploading it', () => {
    expect(pictureProblem({ size: 1000, type: 'image/png' })).toBeNull()
    expect(pictureProblem({ size: 1000, type: '' })).toBeNull()
    expect(pictureProblem({ size: 0, type: 'image/png' })).toBe('empty')
    expect(pictureProblem({ size: 5 * 1024 * 1024 + 1, type: 'image/jpeg' })).toBe('tooLarge')
    expect(pictureProblem({ size: 10, type: 'application/pdf' })).toBe('notImage')
    expect(certificateFileName(9)).toBe('prima-account-9.png')
  })

  it('shows the day in Shanghai', () => {
    expect(certificateDate('2026-03-01T17:00:00Z')).toBe('2026-03-02')
    expect(certificateDate('nope')).toBe('')
  })
})
