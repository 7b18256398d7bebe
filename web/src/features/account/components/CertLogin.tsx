// Signing in with the account certificate, on the login page: pick the saved
// picture (the server reads its QR code and checks it), confirm the account
// it names, then sign in as that user on this device. A link carrying the
// credential (/mine/login#uid=..&qrCnt=.., or ?qrCnt=..&uid=..) goes straight
// to the confirmation; the credential is wiped from the address bar first,
// so it stays in neither the history nor a screenshot of the URL.
import { useEffect, useRef, useState, type ChangeEvent } from 'react'
import { useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { Spinner } from '@/components/Spinner'
import { useUserStore } from '@/stores/user'
import { certificateLogin, extractCertificate } from '@/features/account/api/certificate'
import { credentialFromLocation, hasCredentialParams, pictureProblem, type CertCredential } from '@/features/account/certificate'
import { ensureGuestSession, forgetUserData } from '@/features/account/session'
import styles from './CertLogin.module.css'

const PROBLEM = { tooLarge: 'cert.login.tooLarge', notImage: 'cert.login.notImage', empty: 'cert.login.empty' } as const

type State =
  | { step: 'idle' }
  | { step: 'reading' }
  | { step: 'confirm'; cred: CertCredential; fromLink: boolean }
  | { step: 'signing'; cred: CertCredential; fromLink: boolean }

export function CertLogin() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useUserStore((s) => s.login)
  const input = useRef<HTMLInputElement>(null)
  const card = useRef<HTMLElement>(null)
  const [state, setState] = useState<State>({ step: 'idle' })
  const [error, setError] = useState<string | null>(null)

  // A link carrying the credential: read once, then cleared from the URL.
  useEffect(() => {
    const loc = window.location
    if (!hasCredentialParams(loc)) return
    const cred = credentialFromLocation(loc)
    const params = new URLSearchParams(loc.search)
    params.delete('qrCnt')
    params.delete('uid')
    const rest = params.toString()
    window.history.replaceState(window.history.state, '', loc.pathname + (rest ? `?${rest}` : ''))
    if (cred) setState({ step: 'confirm', cred, fromLink: true })
    else setError(t('cert.login.badLink'))
  }, [])

  // The confirmation may open below the fold of a short phone: bring it up.
  const confirming = state.step === 'confirm'
  useEffect(() => {
    if (confirming) card.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' })
  }, [confirming])

  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    e.target.value = '' // the same picture may be picked again after a failure
    if (!file) return
    setError(null)
    const problem = pictureProblem(file)
    if (problem) {
      setError(t(PROBLEM[problem]))
      return
    }
    setState({ step: 'reading' })
    try {
      const cred = await extractCertificate(file, file.name || 'certificate.png')
      setState({ step: 'confirm', cred, fromLink: false })
    } catch (err) {
      setState({ step: 'idle' })
      setError(err instanceof ApiError ? err.tip : t('cert.login.readFailed'))
    }
  }

  const onConfirm = async () => {
    if (state.step !== 'confirm') return
    setState({ ...state, step: 'signing' })
    setError(null)
    try {
      // A fresh browser opened on a link is still signing in as a guest
      // (startup.ts): that finishes first, so it cannot land after this
      // login and put the guest's token back.
      await ensureGuestSession().catch(() => undefined)
      const r = await certificateLogin(state.cred)
      // Another user now: nothing cached for the last one may show.
      forgetUserData(queryClient)
      login(r.token, r.user)
      toast.success(t('cert.login.success'))
      navigate('/mine', { replace: true })
    } catch (err) {
      setState({ step: 'idle' })
      setError(err instanceof ApiError ? err.tip : t('cert.login.failed'))
    }
  }

  if (state.step === 'confirm' || state.step === 'signing') {
    const busy = state.step === 'signing'
    return (
      <section ref={card} className={styles.confirm} data-testid="cert-confirm" aria-live="polite">
        <p className={styles.found}>{t(state.fromLink ? 'cert.login.foundLink' : 'cert.login.found')}</p>
        <p className={styles.uid} data-testid="cert-confirm-uid" data-uid={state.cred.uid}>
          {t('cert.login.uid', { uid: state.cred.uid })}
        </p>
        <p className={styles.sub}>{t('cert.login.switchHint')}</p>
        <button type="button" className={styles.primary} onClick={onConfirm} disabled={busy} data-testid="cert-confirm-login">
          {busy && <Spinner size={16} />}
          {t('cert.login.confirm')}
        </button>
        <button type="button" className={styles.cancel} onClick={() => setState({ step: 'idle' })} disabled={busy} data-testid="cert-confirm-cancel">
          {t('cert.login.cancel')}
        </button>
      </section>
    )
  }

  const reading = state.step === 'reading'
  return (
    <section className={styles.wrap}>
      <div className={styles.or} aria-hidden="true">
        <span>{t('cert.login.or')}</span>
      </div>
      <button type="button" className={styles.pick} onClick={() => input.current?.click()} disabled={reading} data-testid="cert-login-pick">
        {reading ? <Spinner size={16} /> : <QrGlyph />}
        {reading ? t('cert.login.reading') : t('cert.login.pick')}
      </button>
      <p className={styles.sub}>{t('cert.login.pickHint')}</p>
      <input ref={input} type="file" accept="image/*" hidden onChange={onFile} data-testid="cert-login-file" />
      {error && (
        <p className={styles.error} role="alert" data-testid="cert-login-error">
          {error}
        </p>
      )}
    </section>
  )
}

const QrGlyph = () => (
  <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true">
    <rect x="3" y="3" width="7" height="7" rx="1" />
    <rect x="14" y="3" width="7" height="7" rx="1" />
    <rect x="3" y="14" width="7" height="7" rx="1" />
    <path d="M14 14h3v3h-3zM20 14v1M14 20h1M17 17h4v4h-4" />
  </svg>
)
