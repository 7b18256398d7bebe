// The support feature's query keys. Personal lists carry the token.
export const supportKeys = {
  all: ['support'] as const,
  source: () => [...supportKeys.all, 'source'] as const,
  feedbackAll: () => [...supportKeys.all, 'feedback'] as const,
  feedback: (token: string | null) => [...supportKeys.all, 'feedback', token] as const,
  settledAll: () => [...supportKeys.all, 'settled'] as const,
  settled: (token: string | null) => [...supportKeys.all, 'settled', token] as const,
}
