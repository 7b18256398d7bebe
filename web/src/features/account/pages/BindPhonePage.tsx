// bindphone (/mine/bindphone): bind a phone, or change the bound one, with
// a code sent to the new number and the account's password (checked afresh
// by the server). Guests are asked to register first. On success the user
// info (masked mobile) is updated and the page goes back to account safety.
import { useState, type FormEvent } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { useUserStore } from '@/stores/user'
import { useBindPhone } from '@/features/account/api/bind-phone'
import { Field } from '@/features/account/components/Field'
import { CodeField, MobileField } from '@/features/account/components/WaysFields'
import { RegisterGate } from '@/features/account/components/GuestGate'
import { checkCode, checkMobile, normalizeMobile } from '@/features/account/phone'
import type { MessageKey } from '@/i18n'
import styles from '@/features/account/components/AuthForm.module.css'

export default function BindPhonePage() {
  const navigate = useNavigate()
  const user = useUserStore((s) => s.user)
  const bind = useBindPhone()
  const [mobile, setMobile] = useState('')
  const [code, setCode] = useState('')
  const [pwd, setPwd] = useState('')
  const [errs, setErrs] = useState<{ mobile?: MessageKey | null; code?: MessageKey | null; pwd?: MessageKey | null }>({})
  const [pwdTip, setPwdTip] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (bind.isPending) return
    const next = { mobile: checkMobile(mobile), code: checkCode(code), pwd: pwd === '' ? ('ways.err.pwdRequired' as const) : null }
    setErrs(next)
    setServerError(null)
    setPwdTip(null)
    if (next.mobile || next.code || next.pwd) return
    bind.mutate(
      { mobile: normalizeMobile(mobile), code: code.trim(), pwd },
      {
        onSuccess: () => {
          toast.success(t('ways.bind.done'))
          navigate('/mine/accountsafe', { replace: true })
        },
        onError: (err) => {
          const tip = err instanceof ApiError ? err.tip : t('ways.failed')
          if (err instanceof ApiError && err.status === 401) setPwdTip(tip)
          else setServerError(tip)
        },
      },
    )
  }

  return (
    <div className={styles.page} data-testid="bindphone-page">
      <NavBar title={t('route.bindphone.title')} back="/mine/accountsafe" />
      <main>
        {user?.isGuest ? (
          <RegisterGate />
        ) : (
          <form className={styles.body} onSubmit={submit} noValidate data-testid="bindphone-form">
            <h2 className={styles.heading}>{t('ways.bind.heading')}</h2>
            <p className={styles.sub}>{user?.mobile ? t('ways.bind.current', { m: user.mobile }) : t('ways.bind.sub')}</p>
            <div className={styles.group}>
              <MobileField value={mobile} onChange={setMobile} error={errs.mobile ? t(errs.mobile) : null} testid="bind-mobile" />
              <CodeField
                mobile={mobile}
                purpose="bind"
                value={code}
                onChange={setCode}
                error={errs.code ? t(errs.code) : null}
                prefix="bind"
                onMobileError={(k) => setErrs((p) => ({ ...p, mobile: k }))}
                onServerError={setServerError}
              />
              <Field
                label={t('ways.bind.pwd')}
                placeholder={t('ways.bind.pwdPh')}
                type="password"
                value={pwd}
                onChange={(v) => {
                  setPwd(v)
                  setPwdTip(null)
                }}
                error={pwdTip ?? (errs.pwd ? t(errs.pwd) : null)}
                hint={t('ways.bind.pwdHint')}
                autoComplete="current-password"
                maxLength={32}
                testid="bind-pwd"
              />
            </div>
            {serverError && (
              <p className={styles.serverError} role="alert" data-testid="bind-error">
                {serverError}
              </p>
            )}
            <button type="submit" className={styles.submit} disabled={bind.isPending} data-testid="bind-submit">
              {bind.isPending && <Spinner size={16} />}
              {t('ways.bind.submit')}
            </button>
          </form>
        )}
      </main>
    </div>
  )
}
