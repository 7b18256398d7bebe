// minelogin (/mine/login): account and password. The server's tip on
// failure (one tip for a wrong account or password) is shown once, under
// the form (the request does not toast, so nothing repeats it).
import { Link } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { loginH5 } from '@/features/account/api/login-h5'
import { CertLogin } from '@/features/account/components/CertLogin'
import { Field } from '@/features/account/components/Field'
import { useAuthForm } from '@/features/account/useAuthForm'
import { validateLogin } from '@/features/account/validation'
import styles from '@/features/account/components/AuthForm.module.css'

export default function LoginPage() {
  const { form, set, onSubmit, fieldError, serverError, pending } = useAuthForm({
    initial: { account: '', password: '' },
    validate: validateLogin,
    send: loginH5,
    successKey: 'login.success',
    failedKey: 'login.failed',
  })
  return (
    <div className={styles.page}>
      <NavBar title={t('route.minelogin.title')} back="/mine" />
      <main>
        <form className={styles.body} onSubmit={onSubmit} noValidate data-testid="login-form">
        <h2 className={styles.heading}>{t('login.heading')}</h2>
        <p className={styles.sub}>{t('login.sub')}</p>
        <div className={styles.group}>
          <Field
            label={t('form.account')}
            placeholder={t('form.account.placeholder')}
            value={form.account}
            onChange={set('account')}
            error={fieldError('account')}
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
            error={fieldError('password')}
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
        <button type="submit" className={styles.submit} disabled={pending} data-testid="login-submit">
          {pending && <Spinner size={16} />}
          {t('login.submit')}
        </button>
        <div className={styles.links}>
          <Link to="/mine/register" replace className={styles.link} data-testid="login-to-register">
            {t('login.toRegister')}
          </Link>
          <Link to="/mine/forget" className={`${styles.link} ${styles.muted}`} data-testid="login-to-forget">
            {t('login.forgot')}
          </Link>
        </div>
        <CertLogin />
        </form>
      </main>
    </div>
  )
}
