// groups (/mine/groups): the official groups from the remote configuration
// (GROUP entries: title, url). Join opens the link in a new window (an app
// path in the app); copy puts the link on the clipboard for another app.
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { openLink, resolveLink } from '@/lib/links'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useSourceList } from '@/features/support/api/get-source'
import type { SupportEntry } from '@/features/support/types'
import styles from '@/features/support/components/support.module.css'

// absolute is the link as another app needs it: app paths get this origin.
function absolute(url: string): string {
  const l = resolveLink(url)
  return l.kind === 'external' ? l.url : location.origin + l.path
}

async function copy(url: string) {
  try {
    await navigator.clipboard.writeText(absolute(url))
    toast.text(t('sup.copied'))
  } catch {
    toast.text(t('sup.copyFailed'))
  }
}

function Group({ e }: { e: SupportEntry }) {
  const navigate = useNavigate()
  return (
    <div className={`${styles.row} ${styles.item}`} data-testid="group-item">
      <div className={styles.itemMain}>
        <p className={styles.itemTitle}>{e.title}</p>
        <p className={styles.itemSub} data-testid="group-url">{absolute(e.url)}</p>
      </div>
      <div className={styles.actions}>
        <button type="button" className={`${styles.pill} ${styles.pillGhost}`} onClick={() => void copy(e.url)} data-testid="group-copy">
          {t('sup.copy')}
        </button>
        <button type="button" className={styles.pill} onClick={() => openLink(e.url, navigate)} data-testid="group-join">
          {t('sup.join')}
        </button>
      </div>
    </div>
  )
}

export default function GroupsPage() {
  const q = useSourceList('GROUP')
  let body
  if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => q.refetch()} />
  else if (q.data.length === 0) body = <StateView kind="empty" title={t('sup.groupsEmpty')} />
  else
    body = (
      <>
        <p className={styles.hint}>{t('sup.groupsHint')}</p>
        <div className={styles.group} data-testid="group-list">
          {q.data.map((e, i) => (
            <Group key={e.id || i} e={e} />
          ))}
        </div>
      </>
    )
  return (
    <div className={styles.page} data-testid="groups-page">
      <NavBar title={t('route.groups.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
