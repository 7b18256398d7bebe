// The invite feature's query keys (invitations and the promoter programme).
// Everything here is personal, so every key carries the token: another
// session's invitations or commission never show. app/realtime.ts marks
// the earnings stale when money moves or an operator decides.
import type { EarningState } from '@/lib/earn'

export type Period = 'day' | 'week' | 'month'

export const inviteKeys = {
  all: ['invite'] as const,
  info: (token: string | null) => ['invite', 'info', token] as const,
  invitees: (token: string | null) => ['invite', 'invitees', token] as const,
  // Commission and the promoter's state: stale whenever money moves.
  earnAll: () => ['invite', 'earn'] as const,
  promoter: (token: string | null) => ['invite', 'earn', 'promoter', token] as const,
  stats: (period: Period, token: string | null) => ['invite', 'earn', 'stats', period, token] as const,
  commissions: (state: EarningState | '', token: string | null) => ['invite', 'earn', 'commissions', state, token] as const,
}
