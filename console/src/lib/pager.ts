// Keyset paging without totals: the server answers a page and the cursor of
// the next one (null on the last); the console keeps the cursors of the
// pages it came through so "newer" can go back. Page 1's cursor is null.
export interface Pager {
  cursors: (string | null)[] // cursors[i] opens page i+1
  index: number // the page on screen, from 0
}

export const firstPage: Pager = { cursors: [null], index: 0 }

export const cursorOf = (p: Pager): string | null => p.cursors[p.index] ?? null

export function older(p: Pager, next: string | null): Pager {
  if (next === null || next === '') return p
  return { cursors: [...p.cursors.slice(0, p.index + 1), next], index: p.index + 1 }
}

export function newer(p: Pager): Pager {
  return p.index === 0 ? p : { cursors: p.cursors, index: p.index - 1 }
}
