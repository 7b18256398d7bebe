// The upload feature's query keys; each carries the token, so another
// session never reads this one's uploads from the cache.
export const uploadKeys = {
  all: ['upload'] as const,
  asset: (id: number, token: string | null) => [...uploadKeys.all, 'asset', id, token] as const,
  mine: (token: string | null) => [...uploadKeys.all, 'mine', token] as const,
}
