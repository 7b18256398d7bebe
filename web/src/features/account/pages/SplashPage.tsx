// splash (/): the brand while the device signs in as a guest, then /home,
// carrying the query string on (spec §2). A failed sign-in stays here with
// the reason and a retry.
import { useCallback, useEffect, useRef } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { useLocation, useNavigate } from 'react-router'
import { prefetchHome } from '@/features/catalog/prefetch'
import { t } from '@/i18n'
import { ApiError, APP_VERSION } from '@/lib/api'
import { useUserStore } from '@/stores/user'
import { useGuestLogin } from '@/features/account/api/guest-login'
import styles from './SplashPage.module.css'

export default function SplashPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { search } = useLocation()
  const login = useUserStore((s) => s.login)
  const m = useGuestLogin()
  const started = useRef(false)

  const run = useCallback(() => {
    const toHome = () => {
      // Home's first data starts now, not once home has rendered.
      void prefetchHome(queryClient)
      navigate({ pathname: '/home', search }, { replace: true })
    }
    if (useUserStore.getState().token) return toHome()
    m.mutateAsync().then(
      (r) => {
        login(r.token, r.user)
        toHome()
      },
      () => undefined, // shown from m.error
    )
  }, [m, login, navigate, queryClient, search])

  useEffect(() => {
    // Once per visit to splash, also under StrictMode's double effects.
    if (started.current) return
    started.current = true
    run()
  }, [run])

  const failed = m.isError
  return (
    <main className={styles.page} data-testid="splash">
      <div className={styles.brand}>
        <img className={styles.logo} src="/favicon.svg" alt="" width="84" height="84" />
        <h1 className={styles.name}>{t('app.name')}</h1>
        <p className={styles.slogan}>{t('splash.slogan')}</p>
      </div>
      <div className={styles.foot}>
        {failed ? (
          <div className={styles.error} role="alert" data-testid="splash-error">
            <p className={styles.errorText}>{m.error instanceof ApiError ? m.error.tip : t('splash.failed')}</p>
            <button type="button" className={styles.retry} onClick={run} data-testid="splash-retry">
              {t('state.retry')}
            </button>
          </div>
        ) : (
          <div className={styles.progress} role="progressbar" aria-label={t('splash.signingIn')} data-testid="splash-progress">
            <span className={`${styles.bar} ${m.isSuccess ? styles.done : ''}`} />
          </div>
        )}
        <p className={styles.version}>{t('splash.version', { v: APP_VERSION })}</p>
      </div>
    </main>
  )
}
