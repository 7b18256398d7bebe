// Follow / unfollow a topic: the change shows at once and goes back if the
// server refuses. Registered users only: anyone else is sent to sign in or
// register, with a word on why.
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { toast } from '@/lib/toast'
import { useUserStore } from '@/stores/user'
import { useFollowTopic } from '@/features/community/api/feed'
import type { Topic } from '@/features/community/types'
import styles from './TopicFollowButton.module.css'

export function TopicFollowButton({ topic, small }: { topic: Topic; small?: boolean }) {
  const navigate = useNavigate()
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest ?? true)
  const follow = useFollowTopic()
  const onClick = (e: React.MouseEvent) => {
    e.preventDefault()
    e.stopPropagation()
    if (token == null || isGuest) {
      toast.text(t('comm.topic.guest'))
      navigate(token == null ? '/mine/login' : '/mine/register')
      return
    }
    follow.mutate({ id: topic.id, follow: !topic.followed })
  }
  return (
    <button
      type="button"
      className={`${styles.btn} ${topic.followed ? styles.on : styles.off} ${small ? styles.small : ''}`}
      onClick={onClick}
      aria-pressed={topic.followed}
      data-testid="topic-follow"
      data-following={topic.followed ? '1' : '0'}
    >
      {topic.followed ? t('comm.topic.following') : t('comm.topic.follow')}
    </button>
  )
}
