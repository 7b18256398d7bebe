// The page of a path outside the route table (notfound), so a link into the
// app never lands on a blank page. Every screen of the table is built; a
// route given this page would be named and described from the catalogue
// (route.<name>.title / .desc) with a "coming soon" badge.
import { useNavigate } from 'react-router'
import { routeDesc, routeTitle, t } from '@/i18n'
import { NavBar } from './NavBar'
import { useRouteName } from './routeName'
import styles from './ComingSoon.module.css'

// Tab screens sit under the tab bar, which is their navigation.
const TAB_SCREENS = new Set(['dark', 'discover', 'shortvideo', 'community'])

export default function ComingSoon() {
  const navigate = useNavigate()
  const name = useRouteName() ?? 'notfound'
  const isTab = TAB_SCREENS.has(name)
  const title = routeTitle(name)

  return (
    <div className={`${styles.page} ${isTab ? styles.inTabs : ''}`} data-testid="coming-soon" data-route={name}>
      {isTab ? (
        <header className={`${styles.largeTitle} prima-chrome`}>
          <h1>{title}</h1>
        </header>
      ) : (
        <NavBar title={title} />
      )}
      <main className={styles.body}>
        {name === 'notfound' ? (
          // A missing page: a magnifier that found nothing, not the clock
          // of a screen still to come.
          <svg className={styles.art} width="120" height="96" viewBox="0 0 120 96" aria-hidden="true" data-icon="notfound">
            <rect x="18" y="10" width="84" height="76" rx="14" fill="currentColor" opacity=".1" />
            <circle cx="55" cy="43" r="16" fill="none" stroke="currentColor" strokeWidth="4" opacity=".45" />
            <path d="M67 55l12 12M49 37l12 12M61 37l-12 12" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" opacity=".45" />
          </svg>
        ) : (
          <svg className={styles.art} width="120" height="96" viewBox="0 0 120 96" aria-hidden="true" data-icon="soon">
            <rect x="18" y="10" width="84" height="76" rx="14" fill="currentColor" opacity=".1" />
            <circle cx="60" cy="44" r="18" fill="none" stroke="currentColor" strokeWidth="4" opacity=".45" />
            <path d="M60 34v11l7 5" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" opacity=".45" />
          </svg>
        )}
        {name !== 'notfound' && <span className={styles.badge}>{t('soon.badge')}</span>}
        <h2 className={styles.title}>{title}</h2>
        <p className={styles.desc}>{routeDesc(name)}</p>
        <button
          type="button"
          className={styles.home}
          data-testid="coming-soon-back"
          onClick={() => {
            const idx = (window.history.state as { idx?: number } | null)?.idx
            if (!isTab && typeof idx === 'number' && idx > 0) navigate(-1)
            else navigate('/home')
          }}
        >
          {isTab || name === 'notfound' ? t('soon.toHome') : t('nav.back')}
        </button>
      </main>
    </div>
  )
}
