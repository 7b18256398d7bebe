// The foot of an infinite list: an IntersectionObserver sentinel that asks
// for the next page a little before the user reaches the end, plus the
// loading, error (tap to retry) and end-of-list lines.
import { useEffect, useRef } from 'react'
import { t } from '@/i18n'
import { Spinner } from './Spinner'
import styles from './LoadMore.module.css'

interface Props {
  hasMore: boolean
  loading: boolean
  error: boolean
  onLoad: () => void
}

export function LoadMore({ hasMore, loading, error, onLoad }: Props) {
  const ref = useRef<HTMLDivElement>(null)
  // The latest callback, so the observer need not be rebuilt on each render.
  const load = useRef(onLoad)
  load.current = onLoad
  const armed = hasMore && !loading && !error

  useEffect(() => {
    const el = ref.current
    if (!el || !armed || typeof IntersectionObserver === 'undefined') return
    const io = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) load.current()
    }, { rootMargin: '0px 0px 600px 0px' })
    io.observe(el)
    return () => io.disconnect()
  }, [armed])

  return (
    <div ref={ref} className={styles.foot} data-testid="load-more">
      {error ? (
        <button type="button" className={`${styles.retry} prima-hit`} onClick={onLoad} data-testid="load-more-retry">
          {t('list.loadFailed')}
        </button>
      ) : loading ? (
        <>
          <Spinner size={16} />
          <span>{t('state.loading')}</span>
        </>
      ) : hasMore ? (
        <span>{t('list.more')}</span>
      ) : (
        <span className={styles.end}>{t('list.end')}</span>
      )}
    </div>
  )
}
