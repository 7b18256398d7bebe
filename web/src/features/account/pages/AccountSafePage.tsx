// accountsafe (/mine/accountsafe): the account's phone (masked; bind or
// change), its password (changed here with the old one), the account
// certificate (its own page) and the devices signed in, each of which can
// be signed out, or all but this one at once.
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { getLang, t, type MessageKey } from '@/i18n'
import { ApiError } from '@/lib/api'
import { confirm } from '@/lib/dialog'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useChangePassword } from '@/features/account/api/login-pwd'
import { useRevokeSessions, useSessions, type SignedInDevice } from '@/features/account/api/sessions'
import { Cell, CellGroup } from '@/features/account/components/Cells'
import { Field } from '@/features/account/components/Field'
import { RegisterGate } from '@/features/account/components/GuestGate'
import { NewPasswordFields } from '@/features/account/components/WaysFields'
import { Glyph } from '@/features/account/components/MineIcons'
import { checkConfirm, checkPassword } from '@/features/account/validation'
import cells from '@/features/account/components/Cells.module.css'
import form from '@/features/account/components/AuthForm.module.css'
import styles from '@/features/account/components/Ways.module.css'

export default function AccountSafePage() {
  const user = useUserStore((s) => s.user)
  const token = useUserStore((s) => s.token)
  const [pwdOpen, setPwdOpen] = useState(false)
  const registered = user != null && !user.isGuest

  return (
    <div className={form.page} data-testid="accountsafe-page">
      <NavBar title={t('route.accountsafe.title')} back="/mine/setting" />
      <main className={styles.body}>
        <CellGroup>
          <Cell
            icon={<Glyph name="shield" color="#34c759" />}
            title={t('ways.safe.account')}
            value={<span data-testid="safe-account">{user?.account ?? user?.name ?? ''}</span>}
          />
          {registered && (
            <>
              <Cell
                icon={<Glyph name="phone" color="#007aff" />}
                title={t('ways.safe.phone')}
                value={<span data-testid="safe-mobile">{user.mobile || t('ways.safe.unbound')}</span>}
                to="/mine/bindphone"
                testid="safe-bindphone"
              />
              <Cell
                icon={<Glyph name="lock" color="#ff9500" />}
                title={t('ways.safe.password')}
                value={t('ways.safe.change')}
                onClick={() => setPwdOpen((v) => !v)}
                testid="safe-password"
              />
            </>
          )}
          <Cell icon={<Glyph name="code" color="#5e5ce6" />} title={t('ways.safe.cert')} to="/mine/accountcode" testid="safe-cert" />
        </CellGroup>
        {user?.isGuest && <RegisterGate />}
        {registered && pwdOpen && <PasswordForm uid={user.uid} onDone={() => setPwdOpen(false)} />}
        <Devices token={token} />
      </main>
    </div>
  )
}

function PasswordForm({ uid, onDone }: { uid: number; onDone: () => void }) {
  const change = useChangePassword()
  const [oldPwd, setOld] = useState('')
  const [pwd, setPwd] = useState('')
  const [again, setAgain] = useState('')
  const [errs, setErrs] = useState<Partial<Record<'old' | 'pwd' | 'again', MessageKey | null>>>({})
  const [oldTip, setOldTip] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (change.isPending) return
    const next = { old: oldPwd === '' ? ('ways.err.pwdRequired' as const) : null, pwd: checkPassword(pwd), again: checkConfirm(pwd, again) }
    setErrs(next)
    setOldTip(null)
    setServerError(null)
    if (Object.values(next).some(Boolean)) return
    change.mutate(
      { uid, pwd, oldPwd },
      {
        onSuccess: () => {
          toast.success(t('ways.pwd.done'))
          onDone()
        },
        onError: (err) => {
          const tip = err instanceof ApiError ? err.tip : t('ways.failed')
          if (err instanceof ApiError && err.status === 401) setOldTip(tip)
          else setServerError(tip)
        },
      },
    )
  }
  const msg = (k: 'old' | 'pwd' | 'again') => (errs[k] ? t(errs[k]!) : null)

  return (
    <form className={styles.pwdForm} onSubmit={submit} noValidate data-testid="pwd-form">
      <h2 className={styles.pwdTitle}>{t('ways.pwd.title')}</h2>
      <div className={form.group}>
        <Field
          label={t('ways.pwd.old')}
          placeholder={t('ways.pwd.oldPh')}
          type="password"
          value={oldPwd}
          onChange={(v) => {
            setOld(v)
            setOldTip(null)
          }}
          error={oldTip ?? msg('old')}
          autoComplete="current-password"
          maxLength={32}
          testid="pwd-old"
        />
        <NewPasswordFields
          label={t('ways.pwd.new')}
          pwd={pwd}
          onPwd={setPwd}
          again={again}
          onAgain={setAgain}
          pwdError={msg('pwd')}
          againError={msg('again')}
          testids={['pwd-new', 'pwd-again']}
        />
      </div>
      {serverError && (
        <p className={form.serverError} role="alert" data-testid="pwd-error">
          {serverError}
        </p>
      )}
      <div className={styles.row2}>
        <button type="button" className={styles.secondary} onClick={onDone}>
          {t('ways.pwd.cancel')}
        </button>
        <button type="submit" className={form.submit} disabled={change.isPending} data-testid="pwd-submit">
          {change.isPending && <Spinner size={16} />}
          {t('ways.pwd.submit')}
        </button>
      </div>
      <div className={form.links}>
        <Link to="/mine/forget" className={`${form.link} ${form.muted}`}>
          {t('ways.pwd.forgot')}
        </Link>
      </div>
    </form>
  )
}

const SYS_NAMES: Record<string, string> = { ios: 'iOS', android: 'Android', pc: 'PC', h5: 'H5' }

function deviceName(d: SignedInDevice): string {
  return d.device || SYS_NAMES[d.sysType] || t('ways.safe.unknownDevice')
}

function Devices({ token }: { token: string | null }) {
  const q = useSessions(token)
  const revoke = useRevokeSessions()
  const list = q.data?.list ?? []
  const others = list.filter((d) => !d.current)

  const signOut = async (d: SignedInDevice) => {
    if (revoke.isPending || !(await confirm({ title: t('ways.safe.signOutConfirm'), content: deviceName(d), confirmText: t('ways.safe.signOut') }))) return
    revoke.mutate({ id: d.id }, { onSuccess: () => toast.success(t('ways.safe.signedOut', { n: 1 })) })
  }
  const signOutOthers = async () => {
    if (revoke.isPending || !(await confirm({ title: t('ways.safe.signOutOthers'), content: t('ways.safe.signOutOthersConfirm'), confirmText: t('ways.safe.signOut') }))) return
    revoke.mutate({ others: true }, { onSuccess: (r) => toast.success(t('ways.safe.signedOut', { n: r.revoked })) })
  }

  let body
  if (q.isPending) body = <StateView kind="loading" compact />
  else if (q.isError) body = <StateView kind="error" compact error={q.error} onRetry={() => void q.refetch()} />
  else
    body = (
      <div className={cells.cells} data-testid="safe-devices">
        {list.map((d) => (
          <div key={d.id} className={styles.device} data-testid={d.current ? 'device-current' : 'device-other'}>
            <Glyph name="phone" color={d.current ? '#34c759' : '#8e8e93'} />
            <div className={styles.deviceMain}>
              <span className={styles.deviceName}>
                {deviceName(d)}
                {d.current && <span className={styles.tag}>{t('ways.safe.thisDevice')}</span>}
              </span>
              <span className={styles.deviceMeta}>
                {[d.device ? SYS_NAMES[d.sysType] : '', t('ways.safe.lastSeen', { t: relativeTime(d.lastSeenAt * 1000, Date.now(), getLang()) })].filter(Boolean).join(' · ')}
              </span>
            </div>
            {!d.current && (
              <button type="button" className={`${styles.signOut} prima-hit`} onClick={() => void signOut(d)} data-testid="device-signout">
                {t('ways.safe.signOut')}
              </button>
            )}
          </div>
        ))}
      </div>
    )

  return (
    <>
      <CellGroup title={t('ways.safe.devices')}>{body}</CellGroup>
      {q.isSuccess && others.length === 0 && (
        <p className={styles.note} data-testid="safe-no-others">
          {t('ways.safe.noOthers')}
        </p>
      )}
      {q.isSuccess && others.length > 0 && (
        <CellGroup>
          <Cell title={t('ways.safe.signOutOthers')} onClick={() => void signOutOthers()} danger testid="safe-signout-others" />
        </CellGroup>
      )}
    </>
  )
}
