// mineregister (/mine/register): account, password, confirmation. Checked
// here by the server's rules first; sent with the guest's token, so the
// guest account is upgraded in place (same uid) and lands on /mine.
import { useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '../../../i18n'
import { ApiError } from '../../../lib/api'
import { toast } from '../../../lib/toast'
import { NavBar } from '../../../components/NavBar'
import { Spinner } from '../../../components/Spinner'
import { useUserStore } from '../../../stores/user'
import { useRegister } from '../api/register'
import { Field } from '../components/Field'
import { hasErrors, normalizeAccount, validateRegister, type FieldErrors, type RegisterForm } from '../validation'
import styles from '../components/AuthForm.module.css'

export default function RegisterPage() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const login = useUserStore((s) => s.login)
  const m = useRegister()
  const [form, setForm] = useState<RegisterForm>({ account: '', password: '', confirm: '' })
  const [errors, setErrors] = useState<FieldErrors<keyof RegisterForm>>({})
  const [submitted, setSubmitted] = useState(false)

  const set = (k: keyof RegisterForm) => (v: string) => {
    const next = { ...form, [k]: v }
    setForm(next)
    if (submitted) setErrors(validateRegister(next))
    if (m.isError) m.reset()
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (m.isPending) return
    setSubmitted(true)
    const errs = validateRegister(form)
    setErrors(errs)
    if (hasErrors(errs)) return
    m.mutate(
      { account: normalizeAccount(form.account), passWord: form.password },
      {
        onSuccess: (r) => {
          login(r.token, r.user)
          queryClient.removeQueries({ queryKey: ['mine'] })
          toast.success(t('register.success'))
          navigate('/mine', { replace: true })
        },
      },
    )
  }

  const msg = (k: keyof RegisterForm) => (errors[k] ? t(errors[k]!) : null)
  const serverError = m.error instanceof ApiError ? m.error.tip : m.error ? t('register.failed') : null
  return (
    <div className={styles.page}>
      <NavBar title={t('route.mineregister.title')} back="/mine" />
      <form className={styles.body} onSubmit={onSubmit} noValidate data-testid="register-form">
        <h2 className={styles.heading}>{t('register.heading')}</h2>
        <p className={styles.sub}>{t('register.sub')}</p>
        <div className={styles.group}>
          <Field
            label={t('form.account')}
            placeholder={t('form.account.placeholder')}
            value={form.account}
            onChange={set('account')}
            error={msg('account')}
            hint={t('form.account.hint')}
            autoComplete="username"
            name="account"
            maxLength={20}
            enterKeyHint="next"
            testid="register-account"
          />
          <Field
            label={t('form.password')}
            placeholder={t('form.password.placeholder')}
            type="password"
            value={form.password}
            onChange={set('password')}
            error={msg('password')}
            hint={t('form.password.hint')}
            autoComplete="new-password"
            name="password"
            maxLength={32}
            enterKeyHint="next"
            testid="register-password"
          />
          <Field
            label={t('form.confirm')}
            placeholder={t('form.confirm.placeholder')}
            type="password"
            value={form.confirm}
            onChange={set('confirm')}
            error={msg('confirm')}
            autoComplete="new-password"
            name="confirm"
            maxLength={32}
            enterKeyHint="go"
            testid="register-confirm"
          />
        </div>
        {serverError && (
          <p className={styles.serverError} role="alert" data-testid="register-error">
            {serverError}
          </p>
        )}
        <button type="submit" className={styles.submit} disabled={m.isPending} data-testid="register-submit">
          {m.isPending && <Spinner size={16} />}
          {t('register.submit')}
        </button>
        <div className={styles.links}>
          <Link to="/mine/login" replace className={styles.link} data-testid="register-to-login">
            {t('register.toLogin')}
          </Link>
        </div>
      </form>
    </div>
  )
}
