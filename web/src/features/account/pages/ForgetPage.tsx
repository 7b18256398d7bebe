// mineforget (/mine/forget): a new password with a code sent to the bound
// phone. Works signed out; on success every session of the account ends
// and the user signs in with the new password.
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { useResetPassword } from '@/features/account/api/forget'
import { CodeField, MobileField, NewPasswordFields } from '@/features/account/components/WaysFields'
import { checkCode, checkMobile, normalizeMobile } from '@/features/account/phone'
import { checkConfirm, checkPassword } from '@/features/account/validation'
import styles from '@/features/account/components/AuthForm.module.css'
import ways from '@/features/account/components/Ways.module.css'

type Errs = Partial<Record<'mobile' | 'code' | 'pwd' | 'confirm', MessageKey | null>>

export default function ForgetPage() {
  const navigate = useNavigate()
  const reset = useResetPassword()
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [pwd, setPwd] = useState('')
  const [confirm, setConfirm] = useState('')
  const [errs, setErrs] = useState<Errs>({})
  const [serverError, setServerError] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (reset.isPending) return
    const next: Errs = { mobile: checkMobile(mobile), code: checkCode(code), pwd: checkPassword(pwd), confirm: checkConfirm(pwd, confirm) }
    setErrs(next)
    setServerError(null)
    if (Object.values(next).some(Boolean)) return
    reset.mutate(
      { mobile: normalizeMobile(mobile), code: code.trim(), pwd },
      {
        onSuccess: () => {
          toast.success(t('ways.forget.done'))
          navigate('/mine/login', { replace: true })
        },
        onError: (err) => setServerError(err instanceof ApiError ? err.tip : t('ways.failed')),
      },
    )
  }
  const msg = (k: keyof Errs) => (errs[k] ? t(errs[k]!) : null)

  return (
    <div className={styles.page} data-testid="forget-page">
      <NavBar title={t('route.mineforget.title')} back="/mine/login" />
      <main>
        <form className={styles.body} onSubmit={submit} noValidate data-testid="forget-form">
          <h2 className={styles.heading}>{t('ways.forget.heading')}</h2>
          <p className={styles.sub}>{t('ways.forget.sub')}</p>
          <div className={styles.group}>
            <MobileField value={mobile} onChange={setMobile} error={msg('mobile')} testid="forget-mobile" />
            <CodeField
              mobile={mobile}
              purpose="forget"
              value={code}
              onChange={setCode}
              error={msg('code')}
              prefix="forget"
              onMobileError={(k) => setErrs((p) => ({ ...p, mobile: k }))}
              onServerError={setServerError}
            />
            <NewPasswordFields
              label={t('ways.forget.pwd')}
              pwd={pwd}
              onPwd={setPwd}
              again={confirm}
              onAgain={setConfirm}
              pwdError={msg('pwd')}
              againError={msg('confirm')}
              testids={['forget-pwd', 'forget-confirm']}
            />
          </div>
          {serverError && (
            <p className={styles.serverError} role="alert" data-testid="forget-error">
              {serverError}
            </p>
          )}
          <button type="submit" className={styles.submit} disabled={reset.isPending} data-testid="forget-submit">
            {reset.isPending && <Spinner size={16} />}
            {t('ways.forget.submit')}
          </button>
          <p className={ways.note}>{t('ways.forget.noPhone')}</p>
          <div className={styles.links}>
            <Link to="/mine/login" replace className={styles.link} data-testid="forget-to-login">
              {t('route.minelogin.title')}
            </Link>
          </div>
        </form>
      </main>
    </div>
  )
}
