// searchresult (/search/result?keyword=…&kind=…): the field on top to
// refine, the tabs 综合 / 视频 / 短视频 / 图集 / 帖子 / 话题 / 用户, and under
// them either the overview (each kind's first hits, 查看更多 opening
// /search/more) or one kind's results by page. The tab, sort and filters
// live in the URL (replaced, not pushed), so coming back from an opened
// result shows the same tab and filters, and the shell restores the scroll
// position.
import { useEffect, useState } from 'react'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { toast } from '@/lib/toast'
import { StateView } from '@/components/StateView'
import { useOverview } from '@/features/search/api/search'
import { addHistory } from '@/features/search/history'
import { TABS, cleanQuery, moreURL, parseTab, queryProblem, resultURL, type SearchTab } from '@/features/search/query'
import { withTab } from '@/features/search/filters'
import type { SearchKind } from '@/features/search/types'
import { SearchBox } from '@/features/search/components/SearchBox'
import { SearchHeader } from '@/features/search/components/Header'
import { KindResults, ResultItem } from '@/features/search/components/KindResults'
import { gridOf } from '@/features/search/components/Results'
import styles from '@/features/search/components/search.module.css'

export default function SearchResultPage() {
  const [params, setParams] = useSearchParams()
  const navigate = useNavigate()
  const q = cleanQuery(params.get('keyword') ?? '')
  const tab = parseTab(params.get('kind'))
  const [text, setText] = useState(q)
  useEffect(() => setText(q), [q])

  const submit = (word: string) => {
    const problem = queryProblem(word)
    if (problem) {
      toast.text(t(problem))
      return
    }
    const next = cleanQuery(word)
    addHistory(next)
    if (next !== q) navigate(resultURL(next, tab))
  }

  const setTab = (k: SearchTab) => setParams(withTab(params, k), { replace: true })

  const tabs = (
    <nav className={styles.tabs} role="tablist" data-testid="search-tabs">
      {TABS.map((k) => (
        <button
          key={k}
          type="button"
          role="tab"
          aria-selected={k === tab}
          className={`${styles.tab} ${k === tab ? styles.tabOn : ''}`}
          onClick={() => setTab(k)}
          data-testid={`search-tab-${k}`}
        >
          {t(`search.tab.${k}`)}
        </button>
      ))}
    </nav>
  )

  return (
    <div className={styles.page} data-testid="searchresult-page" data-q={q} data-tab={tab}>
      <SearchHeader back="/search" below={tabs}>
        <SearchBox value={text} onChange={setText} onSubmit={submit} />
      </SearchHeader>
      <main className={styles.body}>
        {queryProblem(q) ? (
          <StateView kind="empty" title={t(queryProblem(q) ?? 'search.empty')} />
        ) : tab === 'all' ? (
          <OverviewList q={q} onTab={setTab} />
        ) : (
          <KindResults key={`${q}-${tab}`} q={q} kind={tab} />
        )}
      </main>
    </div>
  )
}

function OverviewList({ q, onTab }: { q: string; onTab: (k: SearchKind) => void }) {
  const o = useOverview(q)
  if (o.isPending) return <StateView kind="loading" />
  if (o.isError) return <StateView kind="error" error={o.error} onRetry={() => void o.refetch()} />
  const sections = (o.data?.sections ?? []).filter((s) => s.list?.length)
  if (sections.length === 0) return <StateView kind="empty" title={t('search.noResult')} message={t('search.noResultHint')} />
  return (
    <div data-testid="search-overview">
      {sections.map((s) => {
        const { Grid } = gridOf(s.kind)
        return (
          <section key={s.kind} className={styles.section} data-testid="search-section" data-kind={s.kind} data-total={s.total}>
            <div className={styles.blockHead}>
              <button type="button" className={styles.sectionTitle} onClick={() => onTab(s.kind)}>
                {t(`search.tab.${s.kind}`)}
                <span className={styles.total}>{t('search.total', { n: s.total })}</span>
              </button>
              {s.total > s.list.length && (
                <Link to={moreURL(q, s.kind)} className={`${styles.linkBtn} prima-hit`} data-testid="search-more">
                  {t('search.more')}
                </Link>
              )}
            </div>
            <Grid>
              {s.list.map((r, i) => (
                <ResultItem key={`${r.kind}-${r.id}`} r={r} i={i} />
              ))}
            </Grid>
          </section>
        )
      })}
    </div>
  )
}
