// mineregister (/mine/register): account, password, confirmation. Checked
// here by the server's rules first; sent with the guest's token, so the
// guest account is upgraded in place (same uid) and lands on /mine. An
// invitation's link (?ic=CODE) shows its code on the form, and registering
// binds the guest to that inviter first.
import { Link, useLocation } from 'react-router'
import { t } from '@/i18n'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { groupCode, inviteCodeFromSearch } from '@/lib/invite'
import { useUserStore } from '@/stores/user'
import { registerInvited, type RegisterInput } from '@/features/account/api/register'
import { Field } from '@/features/account/components/Field'
import { useAuthForm } from '@/features/account/useAuthForm'
import { validateRegister } from '@/features/account/validation'
import styles from '@/features/account/components/AuthForm.module.css'

export default function RegisterPage() {
  const invite = inviteCodeFromSearch(useLocation().search)
  const { form, set, onSubmit, fieldError, serverError, pending } = useAuthForm({
    initial: { account: '', password: '', confirm: '' },
    validate: validateRegister,
    send: (input: RegisterInput) => registerInvited(input, invite, useUserStore.getState().user?.isGuest === true),
    successKey: 'register.success',
    failedKey: 'register.failed',
  })
  return (
    <div className={styles.page}>
      <NavBar title={t('route.mineregister.title')} back="/mine" />
      <main>
        <form className={styles.body} onSubmit={onSubmit} noValidate data-testid="register-form">
        <h2 className={styles.heading}>{t('register.heading')}</h2>
        <p className={styles.sub}>{t('register.sub')}</p>
        <div className={styles.group}>
          <Field
            label={t('form.account')}
            placeholder={t('form.account.placeholder')}
            value={form.account}
            onChange={set('account')}
            error={fieldError('account')}
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
            error={fieldError('password')}
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
            error={fieldError('confirm')}
            autoComplete="new-password"
            name="confirm"
            maxLength={32}
            enterKeyHint="go"
            testid="register-confirm"
          />
          {invite && (
            <div className={styles.field}>
              <div className={styles.row} data-testid="register-invite" data-code={invite}>
                <span className={styles.label}>{t('register.invite')}</span>
                <span className={styles.value}>{groupCode(invite)}</span>
              </div>
            </div>
          )}
        </div>
        {serverError && (
          <p className={styles.serverError} role="alert" data-testid="register-error">
            {serverError}
          </p>
        )}
        <button type="submit" className={styles.submit} disabled={pending} data-testid="register-submit">
          {pending && <Spinner size={16} />}
          {t('register.submit')}
        </button>
        <div className={styles.links}>
          <Link to="/mine/login" replace className={styles.link} data-testid="register-to-login">
            {t('register.toLogin')}
          </Link>
        </div>
        </form>
      </main>
    </div>
  )
}
