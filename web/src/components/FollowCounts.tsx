// The counts row under Mine's profile card: following, fans and likes
// received (each a way into its list), and the way to my page. Shares its
// cache entry with the profile pages (lib/people.ts), so a follow made
// there shows here without a refetch.
import { Link } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { t } from '@/i18n'
import { getExtension, peopleKeys } from '@/lib/people'
import { formatCount } from '@/lib/time'
import styles from './FollowCounts.module.css'

export function FollowCounts({ token }: { token: string | null }) {
  const q = useQuery({ queryKey: peopleKeys.ext(null, token), queryFn: () => getExtension(null), enabled: token != null })
  const n = (v: number | undefined) => (v == null ? '—' : formatCount(v))
  return (
    <nav className={styles.row} aria-busy={q.isPending} data-testid="mine-counts">
      <Link to="/mine/userguanzhu?tab=follow" className={`${styles.item} prima-hit`} data-testid="mine-count-follow">
        <b>{n(q.data?.followCount)}</b>
        <span>{t('minecounts.follow')}</span>
      </Link>
      <Link to="/mine/userguanzhu?tab=fans" className={`${styles.item} prima-hit`} data-testid="mine-count-fans">
        <b>{n(q.data?.fansCount)}</b>
        <span>{t('minecounts.fans')}</span>
      </Link>
      <Link to="/myhome" className={`${styles.item} prima-hit`} data-testid="mine-count-likes">
        <b>{n(q.data?.likeCount)}</b>
        <span>{t('minecounts.likes')}</span>
      </Link>
      <Link to="/myhome" className={`${styles.item} prima-hit`} data-testid="mine-myhome">
        <b aria-hidden="true">›</b>
        <span>{t('minecounts.home')}</span>
      </Link>
    </nav>
  )
}
