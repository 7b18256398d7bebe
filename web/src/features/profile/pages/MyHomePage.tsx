// usercentermy (/myhome): my own page as others see it (portrait, name, uid,
// bio, counts) with the way to edit it, my creator earnings once I am an
// approved creator, and my works below.
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useExtension, useMyInfo } from '@/features/profile/api/profile'
import { profileKeys } from '@/features/profile/keys'
import { CreatorCard } from '@/features/profile/components/CreatorCard'
import { HeaderSkeleton, ProfileHeader } from '@/features/profile/components/Header'
import { Works } from '@/features/profile/components/Works'
import styles from '@/features/profile/components/ui.module.css'

export default function MyHomePage() {
  const token = useUserStore((s) => s.token)
  const stored = useUserStore((s) => s.user)
  const me = useMyInfo(token)
  const ext = useExtension(null, token)
  const user = me.data ?? stored
  const qc = useQueryClient()

  let body
  if (token == null) body = <StateView kind="empty" title={t('people.signIn')} />
  else if (user == null && me.isPending) body = <HeaderSkeleton />
  else if (user == null) body = <StateView kind="error" error={me.error} onRetry={() => void me.refetch()} />
  else
    body = (
      <>
        <ProfileHeader
          person={{ ...user, gender: me.data?.gender, bio: me.data?.bio }}
          ext={ext.data}
          mine
          actions={
            <Link to="/mine/profile" className={`${styles.btn} prima-hit`} data-testid="people-edit">
              {t('people.edit')}
            </Link>
          }
        />
        <CreatorCard token={token} isGuest={user.isGuest === true} />
        <Works mine uid={user.uid} />
      </>
    )

  return (
    <div className={styles.page} data-testid="myhome">
      <NavBar title={t('route.usercentermy.title')} back="/mine" />
      <main>
        <PullRefresh onRefresh={() => Promise.all([me.refetch(), ext.refetch(), qc.invalidateQueries({ queryKey: profileKeys.earningsAll() })])}>
          <div style={{ minHeight: '60vh' }}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
