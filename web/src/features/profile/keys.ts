// The profile feature's query keys. A user's page is public, but what it
// says depends on who asks (isFollow), so every key carries the token.
export const profileKeys = {
  all: ['profile'] as const,
  me: (token: string | null) => [...profileKeys.all, 'me', token] as const,
  user: (uid: number, token: string | null) => [...profileKeys.all, 'user', uid, token] as const,
  list: (kind: string, uid: number | null, token: string | null) => [...profileKeys.all, 'list', kind, uid ?? 'me', token] as const,
  listAll: () => [...profileKeys.all, 'list'] as const,
  uploads: (token: string | null) => [...profileKeys.all, 'uploads', token] as const,
  videos: (uid: number) => [...profileKeys.all, 'videos', uid] as const,
  // My creator earnings (the summary on /myhome is page 1's): stale
  // whenever money moves (app/realtime.ts).
  earningsAll: () => [...profileKeys.all, 'earnings'] as const,
  earnings: (token: string | null) => [...profileKeys.all, 'earnings', token] as const,
  earningsSummary: (token: string | null) => [...profileKeys.all, 'earnings', 'summary', token] as const,
}
