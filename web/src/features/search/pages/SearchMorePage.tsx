// searchmore (/search/more?keyword=…&kind=…): every result of one kind,
// by page as the user scrolls, with the kind's sort chips and filters (in
// the URL, replaced, like the sort).
import { useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { cleanQuery, parseKind, queryProblem, resultURL } from '@/features/search/query'
import { KindResults } from '@/features/search/components/KindResults'
import styles from '@/features/search/components/search.module.css'

export default function SearchMorePage() {
  const [params] = useSearchParams()
  const q = cleanQuery(params.get('keyword') ?? '')
  const kind = parseKind(params.get('kind'))
  const problem = queryProblem(q)
  return (
    <div className={styles.page} data-testid="searchmore-page" data-q={q} data-kind={kind ?? ''}>
      <NavBar title={kind ? `${t(`search.tab.${kind}`)} · ${q}` : t('route.searchmore.title')} back={problem ? '/search' : resultURL(q)} />
      <main className={styles.body}>
        {problem ? (
          <StateView kind="empty" title={t(problem)} />
        ) : !kind ? (
          <StateView kind="empty" title={t('search.noResult')} />
        ) : (
          <KindResults key={`${q}-${kind}`} q={q} kind={kind} />
        )}
      </main>
    </div>
  )
}
