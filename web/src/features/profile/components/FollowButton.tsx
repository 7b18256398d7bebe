// Follow / unfollow a user. The change shows at once (useFollow is
// optimistic) and goes back if the server refuses. Only registered users
// follow: a guest is sent to sign in, with a word on why.
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { toast } from '@/lib/toast'
import { useUserStore } from '@/stores/user'
import { useFollow } from '@/features/profile/api/follow'
import styles from './ui.module.css'

interface Props {
  uid: number
  isFollow: boolean
  // followsMe: they follow the caller (a fans row), so "follow back".
  followsMe?: boolean
  small?: boolean
}

export function FollowButton({ uid, isFollow, followsMe, small }: Props) {
  const navigate = useNavigate()
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? true)
  const follow = useFollow()
  const onClick = () => {
    if (token == null || isGuest) {
      toast.text(t('people.guestFollow'))
      navigate('/mine/login')
      return
    }
    follow.mutate({ uid, follow: !isFollow })
  }
  const label = isFollow ? t('people.following') : followsMe ? t('people.followBack') : t('people.follow')
  return (
    <button
      type="button"
      className={`${styles.btn} ${isFollow ? '' : styles.btnFill} ${small ? styles.small : ''} prima-hit`}
      onClick={onClick}
      disabled={follow.isPending}
      aria-pressed={isFollow}
      data-testid="people-follow"
      data-following={isFollow ? '1' : '0'}
    >
      {label}
    </button>
  )
}
