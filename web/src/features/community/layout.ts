// Pure helpers of the feeds: the operator's layout (COMMUNITYLAYOUT), the
// community tab's choice, the waterfall split and the picture grid.
import type { SourceEntry } from '@/stores/config'
import type { Post } from './types'

export type Columns = 1 | 2

// communityColumns reads COMMUNITYLAYOUT: its first entry's weight (or a
// title of "2") asks for the two-column waterfall; anything else, or
// nothing, is one column.
export function communityColumns(entries: SourceEntry[] | undefined | null): Columns {
  const e = Array.isArray(entries) ? entries[0] : undefined
  if (!e) return 1
  if (Number(e.weight) === 2 || String(e.title).trim() === '2') return 2
  return 1
}

// The community tab's choice is one number in the app store: a feed (a
// negative code) or a sub-module id (> 0).
export const CHOICE_RECOMMEND = -1
export const CHOICE_NEW = -2
export const CHOICE_FOLLOW = -3
export type FeedName = 'recommend' | 'new' | 'follow'

export function choiceFeed(choice: number | undefined): FeedName | null {
  if (choice === CHOICE_NEW) return 'new'
  if (choice === CHOICE_FOLLOW) return 'follow'
  if (choice != null && choice > 0) return null
  return 'recommend'
}

export function feedChoice(feed: FeedName): number {
  return feed === 'new' ? CHOICE_NEW : feed === 'follow' ? CHOICE_FOLLOW : CHOICE_RECOMMEND
}

// cardCover is what a waterfall tile shows on top: the first picture, or
// the video's poster, with its aspect ratio clamped to 3:4..4:3 so one very
// tall picture does not fill the screen.
export function coverRatio(p: Post): number | null {
  const pic = p.pictures[0]
  const w = pic?.width || p.video?.width || 0
  const h = pic?.height || p.video?.height || 0
  if (!pic && !p.video) return null
  if (w <= 0 || h <= 0) return 1
  return Math.min(4 / 3, Math.max(3 / 4, h / w))
}

// splitWaterfall deals cards into two columns, each to the shorter one by
// an estimate of its height (cover ratio plus text), so appending a page
// never moves the cards already shown.
export function splitWaterfall<T>(items: T[], height: (x: T) => number): [T[], T[]] {
  const cols: [T[], T[]] = [[], []]
  const h = [0, 0]
  for (const x of items) {
    const i = h[1] < h[0] ? 1 : 0
    cols[i].push(x)
    h[i] += height(x)
  }
  return cols
}

// tileHeight estimates a waterfall tile's height in column widths.
export function tileHeight(p: Post): number {
  const r = coverRatio(p)
  return (r ?? 0) + 0.45 + (r == null ? 0.35 : 0)
}

// gridOf is the picture grid of a one-column card: one picture large, two
// or four in two columns, otherwise three; at most 9 cells, the last one
// saying "+N" when the post has more pictures than the card shows.
export function gridOf(shown: number, total: number): { cols: 1 | 2 | 3; cells: number; extra: number } {
  const cells = Math.min(shown, 9)
  const cols = cells <= 1 ? 1 : cells === 2 || cells === 4 ? 2 : 3
  return { cols, cells, extra: Math.max(0, total - cells) }
}

// uniquePosts drops repeats across pages: a hot list can shift between two
// page loads and hand the same post out twice.
export function uniquePosts(pages: { list: Post[] }[] | undefined): Post[] {
  const seen = new Set<number>()
  const out: Post[] = []
  for (const p of pages ?? []) {
    for (const x of p.list) {
      if (seen.has(x.id)) continue
      seen.add(x.id)
      out.push(x)
    }
  }
  return out
}
