// search (/search) and homesearch (/home/search): one page. The field is
// focused on arrival; while it is empty the page shows this device's
// history (newest first, clear-all after a confirm) and the hot words
// (the operator's pinned ones marked 置顶, the top three highlighted);
// while the user types it shows suggestions (debounced 200 ms, a stale
// request cancelled), the typed part highlighted. Enter, 搜索, a history
// word, a hot word or a suggestion opens /search/result?keyword=….
import { useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { t } from '@/i18n'
import { confirm } from '@/lib/dialog'
import { toast } from '@/lib/toast'
import { useRouteName } from '@/components/routeName'
import { useHot, useSuggest } from '@/features/search/api/search'
import { addHistory, clearHistory, loadHistory } from '@/features/search/history'
import { typedMarks } from '@/features/search/highlight'
import { cleanQuery, queryProblem, resultURL } from '@/features/search/query'
import { useDebounced } from '@/features/search/useDebounced'
import { Highlight } from '@/features/search/components/Highlight'
import { SearchBox } from '@/features/search/components/SearchBox'
import { SearchHeader } from '@/features/search/components/Header'
import styles from '@/features/search/components/search.module.css'

export const SUGGEST_DELAY_MS = 200

function confirmClear(): Promise<boolean> {
  return confirm({ title: t('search.clearConfirmTitle'), content: t('search.clearConfirmBody'), confirmText: t('search.clearConfirmOk') })
}

export default function SearchPage() {
  const navigate = useNavigate()
  const name = useRouteName()
  const { state } = useLocation()
  const initial = typeof (state as { q?: unknown } | null)?.q === 'string' ? (state as { q: string }).q : ''
  const [text, setText] = useState(initial)
  const [history, setHistory] = useState(loadHistory)
  const typed = cleanQuery(text)
  const debounced = useDebounced(typed, SUGGEST_DELAY_MS)

  const go = (word: string) => {
    const problem = queryProblem(word)
    if (problem) {
      toast.text(t(problem))
      return
    }
    const q = cleanQuery(word)
    setHistory(addHistory(q))
    navigate(resultURL(q))
  }

  const clearAll = async () => {
    if (!(await confirmClear())) return
    clearHistory()
    setHistory([])
  }

  return (
    <div className={`${styles.page} ${styles.plain}`} data-testid="search-page" data-route={name}>
      <SearchHeader back={name === 'homesearch' ? '/home' : '/discover'}>
        <SearchBox value={text} onChange={setText} onSubmit={go} autoFocus />
      </SearchHeader>
      <main className={styles.body}>
        {typed !== '' ? (
          <Suggestions typed={typed} q={debounced} onPick={go} />
        ) : (
          <>
            {history.length > 0 && (
              <section className={styles.block} data-testid="search-history">
                <div className={styles.blockHead}>
                  <h2 className={styles.blockTitle}>{t('search.history')}</h2>
                  <button type="button" className={`${styles.linkBtn} prima-hit`} onClick={() => void clearAll()} data-testid="search-history-clear">
                    {t('search.clearHistory')}
                  </button>
                </div>
                <div className={styles.chips}>
                  {history.map((w) => (
                    <button key={w} type="button" className={`${styles.chip} prima-hit`} onClick={() => go(w)} data-testid="search-history-word">
                      {w}
                    </button>
                  ))}
                </div>
              </section>
            )}
            <HotWords onPick={go} />
          </>
        )}
      </main>
    </div>
  )
}

function Suggestions({ typed, q, onPick }: { typed: string; q: string; onPick: (w: string) => void }) {
  const s = useSuggest(q)
  // What the server suggested for an older prefix stays until the new one
  // answers, but only while it still fits what is typed.
  const list = (s.data?.list ?? []).filter((w) => typedMarks(w, typed).length > 0 || q === typed)
  return (
    <section aria-label={t('search.suggestions')} data-testid="search-suggest" data-q={q}>
      <button type="button" className={`${styles.suggest} prima-hit`} onClick={() => onPick(typed)} data-testid="search-suggest-typed">
        <SearchGlyph />
        <span className={styles.suggestText}>
          <mark className={styles.mark}>{typed}</mark>
        </span>
      </button>
      {list
        .filter((w) => w !== typed)
        .map((w) => (
          <button key={w} type="button" className={`${styles.suggest} prima-hit`} onClick={() => onPick(w)} data-testid="search-suggest-word">
            <SearchGlyph />
            <span className={styles.suggestText}>
              <Highlight text={w} marks={typedMarks(w, typed)} />
            </span>
          </button>
        ))}
    </section>
  )
}

function SearchGlyph() {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className={styles.suggestIcon}>
      <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  )
}

function HotWords({ onPick }: { onPick: (w: string) => void }) {
  const hot = useHot()
  const list = hot.data?.list ?? []
  return (
    <section className={styles.block} data-testid="search-hot">
      <div className={styles.blockHead}>
        <h2 className={styles.blockTitle}>{t('search.hot')}</h2>
      </div>
      {hot.isPending ? (
        <div className={styles.hotGrid} aria-hidden="true">
          {Array.from({ length: 6 }, (_, i) => (
            <span key={i} className={`${styles.skLine} prima-skeleton`} />
          ))}
        </div>
      ) : hot.isError ? (
        <p className={styles.muted} data-testid="search-hot-error">
          {t('search.hotFailed')}{' '}
          <button type="button" className={styles.linkBtn} onClick={() => void hot.refetch()}>
            {t('state.retry')}
          </button>
        </p>
      ) : list.length === 0 ? (
        <p className={styles.muted}>{t('search.hotEmpty')}</p>
      ) : (
        <ol className={styles.hotGrid}>
          {list.map((h, i) => (
            <li key={h.word}>
              <button type="button" className={`${styles.hot} prima-hit`} onClick={() => onPick(h.word)} data-testid="search-hot-word" data-pinned={h.pinned}>
                <span className={`${styles.rank} ${i < 3 ? styles.rankTop : ''}`}>{i + 1}</span>
                <span className={styles.hotWord}>{h.word}</span>
                {h.pinned && <span className={styles.pin}>{t('search.pinned')}</span>}
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}
