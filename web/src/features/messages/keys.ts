// The message centre's query keys. Everything here is personal, so every
// key carries the token. The unread counts' key is the shared one in
// src/lib/inbox.ts: the Mine page and the tab bar read it too.
export type NoticeCategory = 'system' | 'interaction'

export const messageKeys = {
  all: ['messages'] as const,
  notices: (category: NoticeCategory, token: string | null) => [...messageKeys.all, 'notices', category, token] as const,
  conversations: (token: string | null) => [...messageKeys.all, 'conversations', token] as const,
  history: (uid: number, token: string | null) => [...messageKeys.all, 'history', uid, token] as const,
  blocked: (token: string | null) => [...messageKeys.all, 'blocked', token] as const,
}
