// The applications from the remote configuration (APPS entries: title, url,
// icon, desc), as the application centre's grid or the download page's
// list. A tap counts (POST /api/app/apps/click, failures ignored) and opens
// the app's link: a new window for an address, the app for a path.
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { openLink } from '@/lib/links'
import { initial } from '@/lib/support'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { postAppClick } from '@/features/support/api/app-click'
import { useSourceList } from '@/features/support/api/get-source'
import type { SupportEntry } from '@/features/support/types'
import styles from './support.module.css'

function Icon({ e }: { e: SupportEntry }) {
  return e.icon ? (
    <img className={styles.icon} src={e.icon} alt="" loading="lazy" />
  ) : (
    <span className={styles.icon} aria-hidden="true">
      {initial(e.title)}
    </span>
  )
}

export function AppList({ variant }: { variant: 'center' | 'download' }) {
  const q = useSourceList('APPS')
  const navigate = useNavigate()
  const go = (e: SupportEntry) => {
    postAppClick(e.id)
    openLink(e.url, navigate)
  }
  const route = variant === 'center' ? 'applicationcenter' : 'applicationdownload'

  let body
  if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => q.refetch()} />
  else if (q.data.length === 0) body = <StateView kind="empty" title={t('sup.appsEmpty')} />
  else if (variant === 'center')
    body = (
      <div className={`${styles.group} ${styles.grid}`} data-testid="app-grid">
        {q.data.map((e, i) => (
          <button key={e.id || i} type="button" className={`${styles.tile} prima-hit`} onClick={() => go(e)} data-testid="app-item" data-id={e.id}>
            <Icon e={e} />
            <span className={styles.tileTitle}>{e.title}</span>
          </button>
        ))}
      </div>
    )
  else
    body = (
      <div className={styles.group} data-testid="app-list">
        {q.data.map((e, i) => (
          <div key={e.id || i} className={`${styles.row} ${styles.item}`} data-testid="app-item" data-id={e.id}>
            <Icon e={e} />
            <div className={styles.itemMain}>
              <p className={styles.itemTitle}>{e.title}</p>
              {e.desc && <p className={styles.itemSub}>{e.desc}</p>}
            </div>
            <button type="button" className={styles.pill} onClick={() => go(e)} data-testid="app-open">
              {t('sup.download')}
            </button>
          </div>
        ))}
      </div>
    )

  return (
    <div className={styles.page} data-testid={`${route}-page`}>
      <NavBar title={t(`route.${route}.title`)} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
