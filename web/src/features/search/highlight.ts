// Highlighting without HTML: a title is cut into plain-text segments, the
// matched ones flagged, and React renders each as text. Marks are the
// server's [start, end) ranges of code points (Go runes) of the title; bad
// ranges (negative, reversed, past the end, overlapping) are clamped or
// merged, never trusted.
import type { Mark } from './types'

export interface Segment {
  text: string
  hit: boolean
}

export function segments(title: string, marks: readonly Mark[] | null | undefined): Segment[] {
  const cps = Array.from(title)
  const n = cps.length
  const ranges = (marks ?? [])
    .filter((m) => Array.isArray(m) && Number.isInteger(m[0]) && Number.isInteger(m[1]))
    .map(([a, b]) => [Math.max(0, Math.min(a, n)), Math.max(0, Math.min(b, n))] as Mark)
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0])
  const merged: Mark[] = []
  for (const r of ranges) {
    const last = merged[merged.length - 1]
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else merged.push([r[0], r[1]])
  }
  const out: Segment[] = []
  let at = 0
  for (const [a, b] of merged) {
    if (a > at) out.push({ text: cps.slice(at, a).join(''), hit: false })
    out.push({ text: cps.slice(a, b).join(''), hit: true })
    at = b
  }
  if (at < n || out.length === 0) out.push({ text: cps.slice(at).join(''), hit: false })
  return out
}

// typedMarks marks where the typed text occurs in a suggestion (case and
// width folded the simple way), for the suggestion list.
export function typedMarks(suggestion: string, typed: string): Mark[] {
  const s = Array.from(suggestion.toLowerCase())
  const q = Array.from(typed.trim().toLowerCase())
  if (q.length === 0) return []
  for (let i = 0; i + q.length <= s.length; i++) {
    let ok = true
    for (let j = 0; j < q.length && ok; j++) ok = s[i + j] === q[j]
    if (ok) return [[i, i + q.length]]
  }
  return []
}
