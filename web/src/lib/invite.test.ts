import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { MemoryStorage } from './testing'
import { forgetPendingInvite, groupCode, inviteCodeFromSearch, inviteLink, normalizeInviteCode, pendingInviteText, rememberInviteFromURL } from './invite'

describe('invite codes', () => {
  beforeEach(() => vi.stubGlobal('localStorage', new MemoryStorage()))
  afterEach(() => vi.unstubAllGlobals())

  it('normalizes and refuses ambiguous letters', () => {
    expect(normalizeInviteCode(' abc234 ')).toBe('ABC234')
    expect(normalizeInviteCode('ABC0O1')).toBeNull()
    expect(normalizeInviteCode('ABC')).toBeNull()
    expect(normalizeInviteCode('ABCDEFGHJ')).toBeNull()
    expect(normalizeInviteCode('ABC\u0000EF')).toBeNull()
  })

  it('reads ?ic= from a search string', () => {
    expect(inviteCodeFromSearch('?ic=abc234&x=1')).toBe('ABC234')
    expect(inviteCodeFromSearch('?x=1')).toBeNull()
    expect(inviteCodeFromSearch('?ic=<script>')).toBeNull()
  })

  it('keeps the landing code for the first guest login', () => {
    expect(pendingInviteText()).toBe('')
    rememberInviteFromURL('?ic=abc234')
    expect(pendingInviteText()).toBe('ic=ABC234')
    rememberInviteFromURL('?other=1')
    expect(pendingInviteText()).toBe('ic=ABC234')
    expect(pendingInviteText('?ic=xyz789')).toBe('ic=XYZ789')
    forgetPendingInvite()
    expect(pendingInviteText()).toBe('')
  })

  it('makes relative links absolute', () => {
    expect(inviteLink('/?ic=ABC234', 'https://p.example')).toBe('https://p.example/?ic=ABC234')
    expect(inviteLink('https://q.example/?ic=ABC234', 'https://p.example')).toBe('https://q.example/?ic=ABC234')
    expect(groupCode('ABC234')).toBe('ABC 234')
  })
})
