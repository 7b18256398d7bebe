// yaoqingcode (/mine/yaoqingcode): enter a friend's code to bind them as
// inviter (once, within the window after joining), or see who invited you.
import { useState, type FormEvent } from 'react'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import { normalizeInviteCode } from '@/lib/invite'
import { toast } from '@/lib/toast'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { bindInviter, inviteKeys, useInviteInfo, type InviteInfo, type InvitePerson } from '@/features/invite/api'
import styles from '@/features/invite/invite.module.css'

export function Person({ p, testid }: { p: InvitePerson; testid?: string }) {
  return (
    <div className={styles.person} data-testid={testid}>
      {p.portrait ? <img className={styles.avatar} src={p.portrait} alt="" /> : <span className={styles.avatar} />}
      <div>
        <p className={styles.name}>{p.name || `#${p.uid}`}</p>
        <p className={styles.rowSub}>ID {p.uid}</p>
      </div>
    </div>
  )
}

function Bind({ info }: { info: InviteInfo }) {
  const token = useUserStore((s) => s.token)
  const queryClient = useQueryClient()
  const [code, setCode] = useState('')
  const [error, setError] = useState('')
  const [busy, setBusy] = useState(false)
  if (info.inviter) {
    return (
      <section className={styles.card}>
        <p className={styles.label}>{t('inv.yourInviter')}</p>
        <div style={{ marginTop: 10 }}>
          <Person p={info.inviter} testid="invite-inviter" />
        </div>
      </section>
    )
  }
  if (!info.canBind) return <StateView kind="empty" title={t('inv.cannotBind')} />
  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (busy) return
    const c = normalizeInviteCode(code)
    if (!c) {
      setError(t('inv.badCode'))
      return
    }
    setError('')
    setBusy(true)
    try {
      const r = await bindInviter(c)
      queryClient.setQueryData(inviteKeys.info(token), { ...info, inviter: r.inviter, canBind: false })
      toast.success(t('inv.bound'))
    } catch {
      // The API client has shown the server's tip.
    } finally {
      setBusy(false)
    }
  }
  return (
    <form className={styles.card} onSubmit={submit} noValidate>
      <p className={styles.name}>{t('inv.enterTitle')}</p>
      <input
        className={styles.input}
        value={code}
        onChange={(e) => setCode(e.target.value.slice(0, 8))}
        placeholder={t('inv.placeholder')}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        inputMode="text"
        aria-label={t('inv.enterTitle')}
        data-testid="invite-input"
      />
      {error && (
        <p className={styles.error} role="alert" data-testid="invite-error">
          {error}
        </p>
      )}
      <p className={styles.hint}>{t('inv.enterHint', { days: info.windowDays })}</p>
      <div className={styles.actions}>
        <button type="submit" className={styles.primary} disabled={busy || code.trim() === ''} data-testid="invite-bind">
          {busy && <Spinner size={16} />}
          {t('inv.bind')}
        </button>
      </div>
    </form>
  )
}

export default function InviteCodePage() {
  const token = useUserStore((s) => s.token)
  const q = useInviteInfo(token)
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else body = <Bind info={q.data} />
  return (
    <div className={styles.page} data-testid="yaoqingcode">
      <NavBar title={t('route.yaoqingcode.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
