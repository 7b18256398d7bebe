// userguanzhu (/mine/userguanzhu?tab=follow|fans[&uid=N]): the people I
// follow and my fans, or with uid someone else's (their lists are public),
// each an infinite list with follow / follow back / unfollow on every row.
import { useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { PersonList } from '@/features/profile/components/PersonList'
import { Tabs } from '@/features/profile/components/Tabs'
import type { ListKind } from '@/features/profile/types'
import styles from '@/features/profile/components/ui.module.css'

export default function UserGuanzhuPage() {
  const [params, setParams] = useSearchParams()
  const token = useUserStore((s) => s.token)
  const me = useUserStore((s) => s.user?.uid)
  const tab: ListKind = params.get('tab') === 'fans' ? 'fans' : 'follow'
  const rawUID = params.get('uid')
  const other = rawUID && /^\d{1,15}$/.test(rawUID) && Number(rawUID) !== me ? Number(rawUID) : null
  const setTab = (k: ListKind) => {
    const next = new URLSearchParams(params)
    next.set('tab', k)
    setParams(next, { replace: true })
  }
  const title = other == null ? t('route.userguanzhu.title') : t(tab === 'fans' ? 'guanzhu.otherFans' : 'guanzhu.otherFollow')

  return (
    <div className={styles.page} data-testid="userguanzhu">
      <NavBar title={title} back="/mine" />
      <main style={{ paddingTop: 8 }}>
        <Tabs
          tabs={[
            { key: 'follow', label: t('guanzhu.tabFollow') },
            { key: 'fans', label: t('guanzhu.tabFans') },
          ]}
          value={tab}
          onChange={setTab}
        />
        <div className={styles.panel} role="tabpanel">
          {token == null ? (
            <StateView kind="empty" title={t('people.signIn')} />
          ) : (
            <PersonList key={tab} kind={tab} uid={other} empty={t(tab === 'fans' ? 'guanzhu.emptyFans' : 'guanzhu.emptyFollow')} />
          )}
        </div>
      </main>
    </div>
  )
}
