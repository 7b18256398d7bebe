// usercenter (/usercenter/:uid): someone's page: their header and counts,
// follow / unfollow (optimistic; a guest is sent to sign in) and a way to
// message them. My own uid shows my page instead.
import { Link, Navigate, useParams } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useExtension, useProfile } from '@/features/profile/api/profile'
import { FollowButton } from '@/features/profile/components/FollowButton'
import { HeaderSkeleton, ProfileHeader } from '@/features/profile/components/Header'
import { Works } from '@/features/profile/components/Works'
import styles from '@/features/profile/components/ui.module.css'

export default function UserCenterPage() {
  const { uid: raw } = useParams()
  const uid = /^\d{1,15}$/.test(raw ?? '') ? Number(raw) : 0
  const token = useUserStore((s) => s.token)
  const me = useUserStore((s) => s.user?.uid)
  const profile = useProfile(uid, token)
  const ext = useExtension(uid > 0 ? uid : null, uid > 0 ? token : null)

  if (uid > 0 && uid === me) return <Navigate to="/myhome" replace />

  let body
  if (uid === 0 || (profile.error instanceof ApiError && profile.error.status === 404)) body = <StateView kind="empty" title={t('people.notFound')} />
  else if (token == null) body = <StateView kind="empty" title={t('people.signIn')} />
  else if (profile.isPending) body = <HeaderSkeleton />
  else if (profile.isError && !profile.data) body = <StateView kind="error" error={profile.error} onRetry={() => void profile.refetch()} />
  else
    body = (
      <>
        <ProfileHeader
          person={profile.data}
          ext={ext.data}
          mine={false}
          actions={
            <>
              <FollowButton uid={uid} isFollow={profile.data.isFollow} />
              <Link to={`/message/${uid}`} className={`${styles.btn} prima-hit`} data-testid="people-message">
                {t('people.message')}
              </Link>
            </>
          }
        />
        <Works mine={false} uid={uid} />
      </>
    )

  return (
    <div className={styles.page} data-testid="usercenter">
      <NavBar title={profile.data?.name ?? t('route.usercenter.title')} back="/home" />
      <main>
        <PullRefresh onRefresh={() => Promise.all([profile.refetch(), ext.refetch()])}>
          <div style={{ minHeight: '60vh' }}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
