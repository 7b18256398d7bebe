// splash (/): the brand while the device signs in as a guest, carrying the
// query string on to /home (spec §2), or to the page the visitor opened
// when the shell sent them here from it (a shared link on a first visit:
// RootLayout, lib/landing.ts). The shell moves on as soon as a sign-in is
// under way, not when it answers: the page is drawn meanwhile and its
// personal calls wait for the token. So this page stays on screen only
// when there is no sign-in to wait for: one that failed (the reason and a
// retry; the shell sends a page here when its sign-in fails) or a device
// the gate let in after start-up, which it signs in here.
//
// One steady frame from the first paint: index.html's boot mark, the gate's
// wait and this page are the same surface with the same logo (inlined in
// the stylesheet, no request) in the same place; the name and progress only
// appear under it.
import { useCallback, useEffect, useRef, useState } from 'react'
import { ensureGuestSession } from '@/features/account/session'
import { t } from '@/i18n'
import { ApiError, APP_VERSION } from '@/lib/api'
import { isOfflineError, onOnline } from '@/lib/network'
import { useAppName } from '@/stores/config'
import { useUserStore } from '@/stores/user'
import { dropFirstScreen } from './first-screen'
import styles from './SplashPage.module.css'

type Phase = 'running' | 'failed'

export default function SplashPage() {
  const failure = useUserStore((s) => s.signInError)
  const appName = useAppName()
  const [phase, setPhase] = useState<Phase>(() => (failure ? 'failed' : 'running'))
  const [error, setError] = useState<unknown>(failure)
  const started = useRef(false)

  // The shell leaves this page once the sign-in has started; only a
  // failure comes back here.
  const run = useCallback(() => {
    setPhase('running')
    ensureGuestSession().catch((e: unknown) => {
      setError(e)
      setPhase('failed')
    })
  }, [])

  // Whatever the server drew of the page the visitor was going to is not
  // what shows here (app/first-screen.ts).
  useEffect(() => {
    if (phase === 'failed') dropFirstScreen()
  }, [phase])

  // A sign-in that failed for want of a connection tries again by itself
  // when the connection returns.
  useEffect(() => (phase === 'failed' ? onOnline(run) : undefined), [phase, run])

  useEffect(() => {
    // Once per visit to splash, also under StrictMode's double effects;
    // not again after a failure the shell brought here (the retry does).
    if (started.current) return
    started.current = true
    if (!failure) run()
  }, [run, failure])

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
            <span className={styles.bar} />
          </div>
        )}
        <p className={styles.version}>{t('splash.version', { v: APP_VERSION })}</p>
      </div>
    </main>
  )
}
