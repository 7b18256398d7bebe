// splash (/): the brand while the device signs in as a guest, then /home,
// carrying the query string on (spec §2), or the page the visitor opened
// when the shell sent them here from it (a shared link on a first visit:
// RootLayout, lib/landing.ts). A failed sign-in stays here with the reason
// and a retry.
//
// One steady frame from the first paint: index.html's boot mark, the gate's
// wait and this page are the same surface with the same logo (inlined in
// the stylesheet, no request) in the same place; the name and progress only
// appear under it. The sign-in itself usually started with the app's first
// script (startup.ts); this page joins it.
import { useCallback, useEffect, useRef, useState } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLocation, useNavigate } from 'react-router'
import { ensureGuestSession } from '@/features/account/session'
import { prefetchHome } from '@/features/catalog/prefetch'
import { t } from '@/i18n'
import { ApiError, APP_VERSION } from '@/lib/api'
import { afterSplash } from '@/lib/landing'
import { isOfflineError, onOnline } from '@/lib/network'
import { useAppName } from '@/stores/config'
import styles from './SplashPage.module.css'

type Phase = 'running' | 'done' | 'failed'

export default function SplashPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { search, state } = useLocation()
  const to = afterSplash(state, search)
  const appName = useAppName()
  const [phase, setPhase] = useState<Phase>('running')
  const [error, setError] = useState<unknown>(null)
  const started = useRef(false)

  const run = useCallback(() => {
    setPhase('running')
    ensureGuestSession().then(
      () => {
        setPhase('done')
        // Home's first data is normally under way already; this finds it.
        // A visit bound for another page does not download home's.
        if (/^\/home(?:[?#]|$)/.test(to)) void prefetchHome(queryClient)
        navigate(to, { replace: true })
      },
      (e: unknown) => {
        setError(e)
        setPhase('failed')
      },
    )
  }, [navigate, queryClient, to])

  // A sign-in that failed for want of a connection tries again by itself
  // when the connection returns.
  useEffect(() => (phase === 'failed' ? onOnline(run) : undefined), [phase, run])

  useEffect(() => {
    // Once per visit to splash, also under StrictMode's double effects.
    if (started.current) return
    started.current = true
    run()
  }, [run])

  return (
    <main className={`prima-boot ${styles.page}`} data-testid="splash">
      <div className={styles.brand}>
        <h1 className={styles.name}>{appName}</h1>
        <p className={styles.slogan}>{t('splash.slogan')}</p>
      </div>
      <div className={styles.foot}>
        {phase === 'failed' ? (
          <div className={styles.error} role="alert" data-testid="splash-error">
            <p className={styles.errorText}>
              {isOfflineError(error) ? t('offline.hint') : error instanceof ApiError ? error.tip : t('splash.failed')}
            </p>
            <button type="button" className={styles.retry} onClick={run} data-testid="splash-retry">
              {t('state.retry')}
            </button>
          </div>
        ) : (
          <div className={styles.progress} role="progressbar" aria-label={t('splash.signingIn')} data-testid="splash-progress">
            <span className={`${styles.bar} ${phase === 'done' ? styles.done : ''}`} />
          </div>
        )}
        <p className={styles.version}>{t('splash.version', { v: APP_VERSION })}</p>
      </div>
    </main>
  )
}
