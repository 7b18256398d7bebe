// A user's posts, for the 帖子 tab of /usercenter/:uid and /myhome (the app
// hands this to the profile through components/UserPostsSlot). On my own
// page the list holds my pending and rejected posts with their state.
import { Link } from 'react-router'
import { t } from '@/i18n'
import type { UserPostsProps } from '@/components/UserPostsSlot'
import { usePosts } from '@/features/community/api/feed'
import { PostList } from './PostList'
import styles from './UserPosts.module.css'

export default function UserPosts({ uid, mine }: UserPostsProps) {
  const q = usePosts({ uid }, uid > 0)
  return (
    <div className={styles.box} data-testid="user-posts">
      <PostList
        q={q}
        columns={1}
        empty={mine ? t('comm.user.mineEmpty') : t('comm.user.empty')}
        emptyAction={
          mine ? (
            <Link to="/community/publish/rule" className={styles.fill}>
              {t('comm.user.publish')}
            </Link>
          ) : undefined
        }
      />
    </div>
  )
}
