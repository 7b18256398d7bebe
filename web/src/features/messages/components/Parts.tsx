// Small pieces the message pages share: a person's round picture (their
// portrait, else the first letter of their name), the register prompt for
// guests, and an infinite list with its loading, error and empty states.
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { t } from '@/i18n'
import { LoadMore } from '@/components/LoadMore'
import { StateView } from '@/components/StateView'
import type { PagedQuery } from '@/components/PagedGrid'
import styles from './ui.module.css'

export function Face({ name, src, small }: { name: string; src?: string; small?: boolean }) {
  const letter = [...(name.trim() || '?')][0]?.toUpperCase() ?? '?'
  return (
    <span className={`${styles.avatar} ${small ? styles.avatarSmall : ''}`} aria-hidden="true">
      {src ? <img src={src} alt="" loading="lazy" decoding="async" /> : letter}
    </span>
  )
}

export function RegisterGate() {
  return (
    <div className={styles.gate} data-testid="msg-guest-gate">
      <StateView kind="empty" title={t('msg.guestTitle')} message={t('msg.guestHint')} compact />
      <Link to="/mine/register" className={`${styles.gateBtn} prima-hit`} data-testid="msg-register">
        {t('msg.guestAction')}
      </Link>
    </div>
  )
}

export function PagedList<T>({ q, empty, item, testid }: { q: PagedQuery<T>; empty: string; item: (x: T) => ReactNode; testid: string }) {
  if (q.isPending) return <StateView kind="loading" />
  if (q.isError && !q.data) return <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  const items = q.data?.pages.flatMap((p) => p.list) ?? []
  if (items.length === 0) return <StateView kind="empty" title={empty} />
  return (
    <>
      <ul className={styles.rows} data-testid={testid}>
        {items.map(item)}
      </ul>
      <LoadMore hasMore={q.hasNextPage} loading={q.isFetchingNextPage} error={q.isFetchNextPageError} onLoad={() => void q.fetchNextPage()} />
    </>
  )
}
