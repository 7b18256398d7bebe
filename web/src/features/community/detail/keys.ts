// The post detail's query keys. The detail and comments carry the token:
// liked, following, access and mine depend on who asks.
export const postKeys = {
  all: ['post'] as const,
  detail: (id: number, token: string | null) => [...postKeys.all, 'detail', id, token] as const,
  comments: (id: number, token: string | null) => [...postKeys.all, 'comments', id, token] as const,
  repliesOf: (id: number) => [...postKeys.all, 'replies', id] as const,
  replies: (id: number, parentId: number, token: string | null) => [...postKeys.repliesOf(id), parentId, token] as const,
}
