// A follow list (following or fans of someone): first page loading, error
// with retry (or offline), empty, then rows as the user scrolls. Each row
// links to the person's page and carries a follow button (none on the
// caller's own row).
import { Link } from 'react-router'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useFollowList } from '@/features/profile/api/follow'
import type { ListKind, Person } from '@/features/profile/types'
import { PersonAvatar } from './Avatar'
import { FollowButton } from './FollowButton'
import styles from './ui.module.css'

function Row({ p, me, fansOfMe }: { p: Person; me: number | undefined; fansOfMe: boolean }) {
  return (
    <li className={styles.row} data-testid="people-row" data-uid={p.uid}>
      <Link to={p.uid === me ? '/myhome' : `/usercenter/${p.uid}`} className={styles.rowLink}>
        <PersonAvatar src={p.portrait} size={44} />
        <div className={styles.rowText}>
          <p className={styles.rowName}>{p.name}</p>
          {p.bio && <p className={styles.rowSub}>{p.bio}</p>}
        </div>
      </Link>
      {p.uid !== me && <FollowButton uid={p.uid} isFollow={p.isFollow} followsMe={fansOfMe} small />}
    </li>
  )
}

export function PersonList({ kind, uid, empty }: { kind: ListKind; uid: number | null; empty: string }) {
  const token = useUserStore((s) => s.token)
  const me = useUserStore((s) => s.user?.uid)
  const q = useFollowList(kind, uid, token)
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const rows = q.data.pages.flatMap((p) => p.list)
  if (rows.length === 0) return <StateView kind="empty" title={empty} />
  const fansOfMe = kind === 'fans' && (uid == null || uid === me)
  return (
    <>
      <ul className={styles.list} data-testid={`people-list-${kind}`}>
        {rows.map((p) => (
          <Row key={p.uid} p={p} me={me} fansOfMe={fansOfMe} />
        ))}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
