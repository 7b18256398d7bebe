// The blocked-words editor's check, the server's rule in the browser
// (internal/wordfilter Normalize): one word per line, trimmed, empty lines
// and repeats (after folding width and case) dropped, at most MAX_WORDS
// words of at most MAX_WORD_CHARS characters, no control characters.
export const MAX_WORDS = 2000
export const MAX_WORD_CHARS = 32

export type WordProblem = { kind: 'tooLong'; line: number; word: string } | { kind: 'control'; line: number } | { kind: 'tooMany'; count: number }

// fold is the server's Fold: NFKC (full-width to half-width), lower case.
export const fold = (s: string) => s.normalize('NFKC').toLowerCase()

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/

export function parseWords(text: string): { words: string[]; problems: WordProblem[] } {
  const words: string[] = []
  const problems: WordProblem[] = []
  const seen = new Set<string>()
  text.split(/\r?\n/).forEach((raw, i) => {
    const w = raw.trim()
    if (!w) return
    if (CONTROL.test(w)) {
      problems.push({ kind: 'control', line: i + 1 })
      return
    }
    if ([...w].length > MAX_WORD_CHARS) {
      problems.push({ kind: 'tooLong', line: i + 1, word: [...w].slice(0, 8).join('') })
      return
    }
    const f = fold(w).trim()
    if (!f || seen.has(f)) return
    seen.add(f)
    words.push(w)
  })
  if (words.length > MAX_WORDS) problems.push({ kind: 'tooMany', count: words.length })
  return { words, problems }
}
