// The frame of the two add-account forms: the fields, the password (checked
// afresh by the server), the server's error and the save button; on success
// back to the list of that kind.
import { useState, type FormEvent, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { t, type MessageKey } from '@/i18n'
import type { PayoutProblem } from '@/lib/payout'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { Spinner } from '@/components/Spinner'
import { useAddAccount, type NewAccount } from '@/features/withdraw/api/payout-accounts'
import { useUserStore } from '@/stores/user'
import { Field } from './Field'
import { GuestGate } from './GuestGate'
import type { ActType } from '@/features/withdraw/types'
import styles from './ui.module.css'

export const problemText = (p: PayoutProblem | null) => (p ? t(`wd.p.${p}` as MessageKey) : null)

export function useAccountForm(actType: ActType) {
  const navigate = useNavigate()
  const add = useAddAccount()
  const [password, setPassword] = useState('')
  const [pwError, setPwError] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)

  return {
    password,
    setPassword: (v: string) => {
      setPassword(v)
      setPwError(null)
    },
    pwError,
    serverError,
    pending: add.isPending,
    checkPassword(): boolean {
      setServerError(null)
      if (password === '') {
        setPwError(t('wd.passwordRequired'))
        return false
      }
      return true
    },
    send(body: NewAccount) {
      if (add.isPending) return
      add.mutate(body, {
        onSuccess: () => {
          toast.success(t('wd.form.saved'))
          navigate(`/mine/address?type=${actType}`, { replace: true })
        },
        onError: (err) => {
          const tip = err instanceof ApiError ? err.tip : t('net.failed')
          if (err instanceof ApiError && err.status === 401) setPwError(tip)
          else setServerError(tip)
        },
      })
    },
  }
}

export function AccountForm({
  form,
  onSubmit,
  children,
  before,
  note,
  testid,
}: {
  form: ReturnType<typeof useAccountForm>
  onSubmit: (e: FormEvent) => void
  children: ReactNode
  before?: ReactNode
  note?: string
  testid: string
}) {
  // Guests cannot add payout accounts (the server answers 403): say so
  // before they type a card number.
  const isGuest = useUserStore((s) => s.user?.isGuest)
  if (isGuest) return <GuestGate />
  return (
    <form onSubmit={onSubmit} noValidate data-testid={testid}>
      {before}
      <div className={styles.group}>{children}</div>
      {note && <p className={styles.note}>{note}</p>}
      <div className={styles.group} style={{ marginTop: 16 }}>
        <Field
          label={t('wd.form.password')}
          type="password"
          value={form.password}
          onChange={form.setPassword}
          autoComplete="current-password"
          placeholder={t('wd.passwordPlaceholder')}
          maxLength={32}
          error={form.pwError}
          hint={t('wd.form.passwordHint')}
          testid={`${testid}-password`}
        />
      </div>
      {form.serverError && (
        <p className={styles.serverError} role="alert" data-testid={`${testid}-error`}>
          {form.serverError}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={form.pending} data-testid={`${testid}-submit`}>
        {form.pending && <Spinner size={16} />}
        {t('wd.form.save')}
      </button>
    </form>
  )
}
