// The picture list of a gallery being made or edited: pictures already in
// the gallery (an asset id and its thumbnail) and uploads under way or
// failed, in the gallery's order. Pure, so vitest checks it.

export interface PictureItem {
  key: string
  name: string
  assetId?: number // set once the upload answered (or the picture was there)
  thumb?: string
  pct: number
  state: 'uploading' | 'done' | 'failed'
  error?: string
}

// MAX_GALLERY_PICTURES is the server's bound (docs/api.md *Galleries*).
export const MAX_GALLERY_PICTURES = 200

// movePicture moves item i by d places (-1 up, +1 down); out of range
// leaves the list as it is.
export function movePicture<T>(list: T[], i: number, d: number): T[] {
  const j = i + d
  if (i < 0 || i >= list.length || j < 0 || j >= list.length) return list
  const out = list.slice()
  ;[out[i], out[j]] = [out[j], out[i]]
  return out
}

// updatePicture replaces the item with key by fn(item).
export function updatePicture(list: PictureItem[], key: string, fn: (p: PictureItem) => PictureItem): PictureItem[] {
  return list.map((p) => (p.key === key ? fn(p) : p))
}

// pictureIds is the asset ids to send, in order: null while an upload is
// under way or when one failed (the operator removes it or waits), so a
// half-made list is never saved.
export function pictureIds(list: PictureItem[]): number[] | null {
  const ids: number[] = []
  for (const p of list) {
    if (p.state !== 'done' || !p.assetId) return null
    ids.push(p.assetId)
  }
  return ids
}

// pictureProblem says why the list cannot be saved yet: a message key.
export function pictureProblem(list: PictureItem[]): string | null {
  if (list.some((p) => p.state === 'uploading')) return 'catalog.pictures.busy'
  if (list.some((p) => p.state === 'failed')) return 'catalog.pictures.failed'
  if (list.length === 0) return 'catalog.pictures.none'
  if (list.length > MAX_GALLERY_PICTURES) return 'catalog.pictures.tooMany'
  if (new Set(list.map((p) => p.assetId)).size !== list.length) return 'catalog.pictures.twice'
  return null
}
