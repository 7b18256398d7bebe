// minelogin (/mine/login): account and password. The server's tip on
// failure (one tip for a wrong account or password) is toasted by the API
// client and also shown under the form.
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '../../../i18n'
import { ApiError } from '../../../lib/api'
import { toast } from '../../../lib/toast'
import { NavBar } from '../../../components/NavBar'
import { Spinner } from '../../../components/Spinner'
import { useUserStore } from '../../../stores/user'
import { useLoginH5 } from '../api/login-h5'
import { Field } from '../components/Field'
import { hasErrors, normalizeAccount, validateLogin, type FieldErrors, type LoginForm } from '../validation'
import styles from '../components/AuthForm.module.css'

export default function LoginPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useUserStore((s) => s.login)
  const m = useLoginH5()
  const [form, setForm] = useState<LoginForm>({ account: '', password: '' })
  const [errors, setErrors] = useState<FieldErrors<keyof LoginForm>>({})
  const [submitted, setSubmitted] = useState(false)

  const set = (k: keyof LoginForm) => (v: string) => {
    const next = { ...form, [k]: v }
    setForm(next)
    // After the first submit, messages follow the typing.
    if (submitted) setErrors(validateLogin(next))
    if (m.isError) m.reset()
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (m.isPending) return
    setSubmitted(true)
    const errs = validateLogin(form)
    setErrors(errs)
    if (hasErrors(errs)) return
    m.mutate(
      { account: normalizeAccount(form.account), passWord: form.password },
      {
        onSuccess: (r) => {
          login(r.token, r.user)
          queryClient.removeQueries({ queryKey: ['mine'] })
          toast.success(t('login.success'))
          navigate('/mine', { replace: true })
        },
      },
    )
  }

  const serverError = m.error instanceof ApiError ? m.error.tip : m.error ? t('login.failed') : null
  return (
    <div className={styles.page}>
      <NavBar title={t('route.minelogin.title')} back="/mine" />
      <form className={styles.body} onSubmit={onSubmit} noValidate data-testid="login-form">
        <h2 className={styles.heading}>{t('login.heading')}</h2>
        <p className={styles.sub}>{t('login.sub')}</p>
        <div className={styles.group}>
          <Field
            label={t('form.account')}
            placeholder={t('form.account.placeholder')}
            value={form.account}
            onChange={set('account')}
            error={errors.account ? t(errors.account) : null}
            autoComplete="username"
            name="account"
            enterKeyHint="next"
            testid="login-account"
          />
          <Field
            label={t('form.password')}
            placeholder={t('form.password.placeholder')}
            type="password"
            value={form.password}
            onChange={set('password')}
            error={errors.password ? t(errors.password) : null}
            autoComplete="current-password"
            name="password"
            enterKeyHint="go"
            testid="login-password"
          />
        </div>
        {serverError && (
          <p className={styles.serverError} role="alert" data-testid="login-error">
            {serverError}
          </p>
        )}
        <button type="submit" className={styles.submit} disabled={m.isPending} data-testid="login-submit">
          {m.isPending && <Spinner size={16} />}
          {t('login.submit')}
        </button>
        <div className={styles.links}>
          <Link to="/mine/register" replace className={styles.link} data-testid="login-to-register">
            {t('login.toRegister')}
          </Link>
          <Link to="/mine/forget" className={`${styles.link} ${styles.muted}`}>
            {t('login.forgot')}
          </Link>
        </div>
      </form>
    </div>
  )
}
