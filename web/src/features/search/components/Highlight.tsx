// A title with the search's matches marked: plain text segments, never
// HTML, so a title holding markup shows as the characters it is.
import { segments } from '@/features/search/highlight'
import type { Mark } from '@/features/search/types'
import styles from './search.module.css'

export function Highlight({ text, marks }: { text: string; marks: readonly Mark[] | null | undefined }) {
  return (
    <>
      {segments(text, marks).map((s, i) =>
        s.hit ? (
          <mark key={i} className={styles.mark} data-testid="search-mark">
            {s.text}
          </mark>
        ) : (
          s.text
        ),
      )}
    </>
  )
}
