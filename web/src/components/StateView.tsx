// The loading, empty and error states every page shows (DESIGN: "every page
// has loading, empty and error states"), with a retry action for errors.
import { useSyncExternalStore, type ReactNode } from 'react'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { browserOnline, isOfflineError, subscribeNetwork } from '@/lib/network'
import { Spinner } from './Spinner'
import styles from './StateView.module.css'

interface Props {
  kind: 'loading' | 'empty' | 'error'
  title?: ReactNode
  message?: ReactNode
  onRetry?: () => void
  // action: another way out of an empty state (清除筛选, say).
  action?: { label: string; onClick: () => void; testid?: string }
  compact?: boolean
  // error, for kind 'error': a failure of the network (no answer, or the
  // browser offline) shows the offline state; any other shows its tip.
  error?: unknown
}

export function StateView({ kind, title, message, onRetry, action, compact, error }: Props) {
  const online = useSyncExternalStore(subscribeNetwork, browserOnline, () => true)
  if (kind === 'error' && isOfflineError(error, online)) {
    return (
      <div className={`${styles.box} ${compact ? styles.compact : ''}`} data-testid="state-offline" role="alert">
        <OfflineArt />
        <p className={styles.title}>{t('offline.title')}</p>
        <p className={styles.message}>{t('offline.hint')}</p>
        {onRetry && (
          <button type="button" className={`${styles.retry} prima-hit`} onClick={onRetry} data-testid="state-retry">
            {t('state.retry')}
          </button>
        )}
      </div>
    )
  }
  if (kind === 'error' && message == null && error instanceof ApiError) message = error.tip
  if (kind === 'loading') {
    return (
      <div className={`${styles.box} ${compact ? styles.compact : ''}`} data-testid="state-loading">
        <Spinner size={24} label={t('state.loading')} />
      </div>
    )
  }
  return (
    <div className={`${styles.box} ${compact ? styles.compact : ''}`} data-testid={`state-${kind}`} role={kind === 'error' ? 'alert' : undefined}>
      {kind === 'empty' ? <EmptyArt /> : <ErrorArt />}
      <p className={styles.title}>{title ?? t(kind === 'empty' ? 'state.empty' : 'state.error')}</p>
      {message && <p className={styles.message}>{message}</p>}
      {onRetry && (
        <button type="button" className={`${styles.retry} prima-hit`} onClick={onRetry} data-testid="state-retry">
          {t('state.retry')}
        </button>
      )}
      {action && (
        <button type="button" className={`${styles.retry} prima-hit`} onClick={action.onClick} data-testid={action.testid}>
          {action.label}
        </button>
      )}
    </div>
  )
}

const EmptyArt = () => (
  <svg width="96" height="72" viewBox="0 0 96 72" aria-hidden="true" className={styles.art}>
    <rect x="14" y="14" width="68" height="46" rx="8" fill="currentColor" opacity=".12" />
    <rect x="24" y="24" width="30" height="5" rx="2.5" fill="currentColor" opacity=".3" />
    <rect x="24" y="35" width="48" height="5" rx="2.5" fill="currentColor" opacity=".2" />
    <rect x="24" y="46" width="38" height="5" rx="2.5" fill="currentColor" opacity=".2" />
  </svg>
)

const OfflineArt = () => (
  <svg width="96" height="72" viewBox="0 0 96 72" aria-hidden="true" className={styles.art}>
    <circle cx="48" cy="36" r="26" fill="currentColor" opacity=".12" />
    <path d="M34 32a20 20 0 0 1 28 0M39 38a12 12 0 0 1 18 0" fill="none" stroke="currentColor" strokeWidth="4" strokeLinecap="round" opacity=".45" />
    <circle cx="48" cy="45" r="3.2" fill="currentColor" opacity=".45" />
    <path d="M33 22 63 52" stroke="currentColor" strokeWidth="4" strokeLinecap="round" opacity=".45" />
  </svg>
)

const ErrorArt = () => (
  <svg width="96" height="72" viewBox="0 0 96 72" aria-hidden="true" className={styles.art}>
    <circle cx="48" cy="36" r="26" fill="currentColor" opacity=".12" />
    <path d="M48 22v17" stroke="currentColor" strokeWidth="5" strokeLinecap="round" opacity=".45" />
    <circle cx="48" cy="49" r="3.2" fill="currentColor" opacity=".45" />
  </svg>
)
