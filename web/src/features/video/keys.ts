// The video feature's query keys (see catalog/keys.ts for why a factory).
// Everything personal (the detail carries isLike/isCollect, the mine lists)
// carries the token, so a new session never reads the last one's cache.
export type MineListKind = 'like' | 'fav' | 'history'

export const videoKeys = {
  all: ['video'] as const,
  detailAll: () => [...videoKeys.all, 'detail'] as const,
  detail: (id: number, token: string | null) => [...videoKeys.detailAll(), id, token] as const,
  // The public part of a video (title, cover) a detail page's HTML carries
  // (app/boot.ts): the same for everyone, so no token in the key.
  summary: (id: number) => [...videoKeys.all, 'summary', id] as const,
  reasons: () => [...videoKeys.all, 'reportReasons'] as const,
  mineAll: () => [...videoKeys.all, 'mine'] as const,
  mine: (kind: MineListKind, token: string | null) => [...videoKeys.mineAll(), kind, token] as const,
  // The favourites page's galleries tab (mine/collection?type=gallery).
  mineGalleries: (token: string | null) => [...videoKeys.mineAll(), 'favGallery', token] as const,
}
