// The account's query keys (see catalog/keys.ts for why a factory). The
// user's own data carries the token, so a new session never reads the last
// one's cache even before it is cleared.
export const accountKeys = {
  all: ['mine'] as const,
  me: (token: string | null) => [...accountKeys.all, 'info', token] as const,
  sessionsAll: () => [...accountKeys.all, 'sessions'] as const,
  sessions: (token: string | null) => [...accountKeys.all, 'sessions', token] as const,
}
