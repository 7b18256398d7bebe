// sourceshortvideo (/sourceshortvideo?id=N[&title=...]): the same feed for
// one source: a sub-module of short videos (id or subModuleID), or a whole
// module (moduleID), full screen with a back button. This is where a
// "more" link of a short-video section, or an operator's link, lands.
import { useNavigate, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { BackIcon } from '@/components/icons'
import { StateView } from '@/components/StateView'
import { useShortModules } from '@/features/shortvideo/api/get-short-modules'
import { ShortFeed } from '@/features/shortvideo/components/ShortFeed'
import { sourceOfQuery } from '@/features/shortvideo/feed'
import styles from '@/features/shortvideo/components/ShortFeed.module.css'

export default function SourceShortVideoPage() {
  const [q] = useSearchParams()
  const navigate = useNavigate()
  const modules = useShortModules()
  const src = sourceOfQuery(q)
  // The title: the query's, else the sub-module's or module's own name.
  const named =
    src?.subModuleID != null
      ? modules.data?.flatMap((m) => m.subModules).find((s) => s.id === src.subModuleID)?.moduleName
      : modules.data?.find((m) => m.moduleID === src?.moduleID)?.moduleName
  const title = src?.title ?? named ?? t('tab.shortvideo')
  const back = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx
    if (typeof idx === 'number' && idx > 0) navigate(-1)
    else navigate('/shortvideo', { replace: true })
  }
  const bar = (
    <div className={styles.bar} data-no-swipe>
      <button type="button" className={styles.back} onClick={back} aria-label={t('nav.back')} data-testid="nav-back">
        <BackIcon size={22} />
      </button>
      <h1 className={styles.barTitle}>{title}</h1>
    </div>
  )
  return (
    <main data-testid="sourceshortvideo-page">
      {src ? (
        <ShortFeed
          key={JSON.stringify(src)}
          source={src.subModuleID != null ? { subModuleID: src.subModuleID } : { moduleID: src.moduleID! }}
          top={bar}
          fill="page"
        />
      ) : (
        <div className={`${styles.feed} ${styles.pageFill}`}>
          <div className={`${styles.top} ${styles.topSolid}`}>{bar}</div>
          <div className={styles.state}>
            <StateView kind="empty" title={t('short.noSource')} />
          </div>
        </div>
      )}
    </main>
  )
}
