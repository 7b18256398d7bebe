// All results of one kind: sort chips where the kind has them, then the
// cards by page as the user scrolls (the 视频 / 帖子 ... tabs and
// /search/more).
import { t } from '@/i18n'
import { PagedGrid } from '@/components/PagedGrid'
import { useResults } from '@/features/search/api/search'
import { sortsOf, type SearchSort } from '@/features/search/query'
import type { Result, SearchKind } from '@/features/search/types'
import { ResultCard, gridOf } from './Results'
import styles from './search.module.css'

export function ResultItem({ r, i }: { r: Result; i: number }) {
  return (
    <div className={styles.item} data-testid="search-result" data-kind={r.kind} data-id={r.id}>
      <ResultCard r={r} eager={i < 4} />
    </div>
  )
}

interface Props {
  q: string
  kind: SearchKind
  sort: SearchSort
  onSort: (s: SearchSort) => void
}

export function KindResults({ q, kind, sort, onSort }: Props) {
  const query = useResults(q, kind, sort)
  const sorts = sortsOf(kind)
  const { Grid, Skeleton } = gridOf(kind)
  const total = query.data?.pages[0]?.total
  return (
    <section data-testid="search-kind" data-kind={kind} data-sort={sort}>
      {(sorts.length > 0 || total != null) && (
        <div className={styles.sortRow}>
          <div className={styles.sorts} role="tablist">
            {sorts.map((s) => (
              <button
                key={s}
                type="button"
                role="tab"
                aria-selected={s === sort}
                className={`${styles.sort} ${s === sort ? styles.sortOn : ''}`}
                onClick={() => onSort(s)}
                data-testid={`search-sort-${s}`}
              >
                {t(`search.sort.${s}`)}
              </button>
            ))}
          </div>
          {total != null && total > 0 && <span className={styles.total}>{t('search.total', { n: total })}</span>}
        </div>
      )}
      <PagedGrid
        q={query}
        Grid={Grid}
        Skeleton={Skeleton}
        empty={t('search.noResult')}
        item={(r, i) => <ResultItem key={`${r.kind}-${r.id}`} r={r} i={i} />}
      />
    </section>
  )
}
