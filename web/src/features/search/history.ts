// The search history kept on this device (spec §2 search): newest first,
// at most 20 words, each once. Storage may be unavailable (private mode);
// then the history is simply empty.
import { storage } from '@/lib/storage'
import { MAX_QUERY_CHARS, chars, cleanQuery } from './query'

export const HISTORY_KEY = 'search_history'
export const HISTORY_MAX = 20

export function loadHistory(): string[] {
  const v = storage.get<unknown>(HISTORY_KEY)
  if (!Array.isArray(v)) return []
  const out: string[] = []
  for (const w of v) {
    if (typeof w !== 'string') continue
    const q = cleanQuery(w)
    if (q && chars(q) <= MAX_QUERY_CHARS && !out.includes(q)) out.push(q)
    if (out.length === HISTORY_MAX) break
  }
  return out
}

// addHistory puts the word first (moving it if it was there) and returns
// the new list.
export function addHistory(word: string): string[] {
  const q = cleanQuery(word)
  const old = loadHistory()
  if (!q || chars(q) > MAX_QUERY_CHARS) return old
  const next = [q, ...old.filter((w) => w !== q)].slice(0, HISTORY_MAX)
  storage.set(HISTORY_KEY, next)
  return next
}

export function clearHistory(): void {
  storage.remove(HISTORY_KEY)
}
