// The money pages' pure rules: the commission form in percent against the
// server's basis points, and the rejection reason the server accepts.
import type { CommissionConfig, InviteReward } from './api'
import { toBps } from './money'

export interface LevelRow {
  member: number
  promoter: number
}
export interface CommissionForm {
  rows: LevelRow[]
  settleDays: number
  creatorShare: number
  inviteReward: InviteReward
}

export function toForm(c: CommissionConfig): CommissionForm {
  return {
    rows: c.levels.map((m, i) => ({ member: m / 100, promoter: (c.promoterLevels[i] ?? 0) / 100 })),
    settleDays: c.settleDays,
    creatorShare: c.creatorShareBps / 100,
    inviteReward: c.inviteReward,
  }
}

export function fromForm(v: CommissionForm): CommissionConfig {
  return {
    levels: v.rows.map((r) => toBps(r.member) ?? 0),
    promoterLevels: v.rows.map((r) => toBps(r.promoter) ?? 0),
    settleDays: v.settleDays,
    creatorShareBps: toBps(v.creatorShare) ?? 0,
    inviteReward: v.inviteReward,
  }
}

// reasonOK: the server refuses line breaks and control characters in a
// reason; trimmed, 1..200 characters.
export const reasonOK = (s: string): boolean => {
  const r = s.trim()
  // eslint-disable-next-line no-control-regex
  return r.length > 0 && Array.from(r).length <= 200 && !/[\u0000-\u001f\u007f]/.test(r)
}

