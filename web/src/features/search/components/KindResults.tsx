// All results of one kind: sort chips where the kind has them, the filters
// where it has those (access level and module, in the URL like the sort),
// then the cards by page as the user scrolls (the 视频 / 帖子 ... tabs and
// /search/more).
import { useState } from 'react'
import { useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { PagedGrid } from '@/components/PagedGrid'
import { StateView } from '@/components/StateView'
import type { SearchModuleKind } from '@/components/SearchModulesSlot'
import { useResults } from '@/features/search/api/search'
import { parseSort, sortsOf, type SearchSort } from '@/features/search/query'
import { NO_FILTER, hasFilters, isFiltered, parseFilter, withFilter, type Filter } from '@/features/search/filters'
import type { Result, SearchKind } from '@/features/search/types'
import { ResultCard, gridOf } from './Results'
import { FilterButton, FilterSheet, FilterSummary, useModules } from './Filters'
import styles from './search.module.css'

export function ResultItem({ r, i }: { r: Result; i: number }) {
  return (
    <div className={styles.item} data-testid="search-result" data-kind={r.kind} data-id={r.id}>
      <ResultCard r={r} eager={i < 4} />
    </div>
  )
}

// KindResults reads its sort and filters from the page's URL and writes
// them back there (replaced, not pushed), so coming back from an opened
// result finds them as they were; both result pages show it this way.
export function KindResults({ q, kind }: { q: string; kind: SearchKind }) {
  const [params, setParams] = useSearchParams()
  const sort = parseSort(kind, params.get('sort'))
  const filter = parseFilter(kind, params)
  const onSort = (s: SearchSort) => {
    const p = new URLSearchParams(params)
    p.set('sort', s)
    setParams(p, { replace: true })
  }
  const onFilter = (f: Filter) => setParams(withFilter(params, f), { replace: true })
  const query = useResults(q, kind, sort, filter)
  const sorts = sortsOf(kind)
  const filters = hasFilters(kind)
  const { Grid, Skeleton } = gridOf(kind)
  const total = query.data?.pages[0]?.total
  const filtered = isFiltered(filter)
  const [open, setOpen] = useState(false)
  const modules = useModules(filters ? (kind as SearchModuleKind) : null)
  const clear = () => onFilter(NO_FILTER)
  const empty = query.data != null && query.data.pages.every((p) => p.list.length === 0)
  return (
    <section data-testid="search-kind" data-kind={kind} data-sort={sort} data-vip={filter.vipLevel} data-module={filter.moduleID}>
      {(sorts.length > 0 || filters || total != null) && (
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
          {filters ? (
            <FilterButton filter={filter} onOpen={() => setOpen(true)} />
          ) : (
            total != null && total > 0 && <span className={styles.total}>{t('search.total', { n: total })}</span>
          )}
        </div>
      )}
      {filters && (filtered || (total != null && total > 0)) && (
        <div className={styles.metaRow}>
          {total != null && total > 0 && <span className={styles.total}>{t('search.total', { n: total })}</span>}
          <FilterSummary filter={filter} modules={modules} onClear={clear} />
        </div>
      )}
      {filtered && empty ? (
        <StateView
          kind="empty"
          title={t('search.filter.none')}
          message={t('search.filter.noneHint')}
          action={{ label: t('search.filter.clear'), onClick: clear, testid: 'search-filter-clear-empty' }}
        />
      ) : (
        <PagedGrid
          q={query}
          Grid={Grid}
          Skeleton={Skeleton}
          empty={t('search.noResult')}
          item={(r, i) => <ResultItem key={`${r.kind}-${r.id}`} r={r} i={i} />}
        />
      )}
      {open && (
        <FilterSheet
          filter={filter}
          modules={modules}
          onClose={() => setOpen(false)}
          onApply={(f) => {
            setOpen(false)
            onFilter(f)
          }}
        />
      )}
    </section>
  )
}
