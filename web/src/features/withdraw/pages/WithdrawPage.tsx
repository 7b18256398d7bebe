// withdraw (/mine/withdraw): income to a bank card or USDT address. The
// page reads the wallet (balance, frozen, limits, fee), previews fee and net
// as the server computes them, and asks for the password in a sheet before
// sending. One idempotency key per intent: retries of a tap reuse it, so a
// lost answer never withdraws twice. Guests are sent to register.
import { useRef, useState, type FormEvent } from 'react'
import { Link, useNavigate } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { yuan } from '@/lib/wallet'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useAccounts } from '@/features/withdraw/api/payout-accounts'
import { useWallet } from '@/features/withdraw/api/wallet'
import { useWithdraw } from '@/features/withdraw/api/withdraw'
import { AccountLine, accountMain, accountSub } from '@/features/withdraw/components/AccountLine'
import { Field } from '@/features/withdraw/components/Field'
import { GuestGate, needsRegistration } from '@/features/withdraw/components/GuestGate'
import { Sheet } from '@/features/withdraw/components/Sheet'
import { maxWithdrawable, previewWithdraw, type WithdrawProblem } from '@/features/withdraw/format'
import { Intent } from '@/features/withdraw/intent'
import type { ActType, PayoutAccount } from '@/features/withdraw/types'
import styles from '@/features/withdraw/components/ui.module.css'

function problemText(p: WithdrawProblem): string {
  switch (p.kind) {
    case 'amount':
      return t('wd.err.amount')
    case 'min':
      return t('wd.err.min', { v: yuan(p.cents) })
    case 'max':
      return t('wd.err.max', { v: yuan(p.cents) })
    case 'daily':
      return t('wd.err.daily', { v: yuan(p.cents) })
    case 'balance':
      return t('wd.err.balance')
    case 'account':
      return t('wd.err.account')
  }
}

export default function WithdrawPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const wallet = useWallet(isGuest ? null : token)
  const [actType, setActType] = useState<ActType>(1)
  const accounts = useAccounts(actType, isGuest ? null : token)

  const recordsLink = (
    <Link to="/mine/withdraw/detail" className={`${styles.sectionLink} prima-hit`} data-testid="wd-records">
      {t('wd.records')}
    </Link>
  )

  let body
  if (token == null) body = <StateView kind="empty" title={t('wd.signIn')} />
  else if (needsRegistration(isGuest, wallet.error, accounts.error)) body = <GuestGate />
  else if (wallet.isPending) body = <StateView kind="loading" />
  else if (wallet.isError) body = <StateView kind="error" error={wallet.error} onRetry={() => void wallet.refetch()} />
  else
    body = (
      <WithdrawForm
        w={wallet.data}
        actType={actType}
        setActType={setActType}
        accounts={accounts.data}
        accountsState={accounts.isPending ? 'loading' : accounts.isError ? 'error' : 'ok'}
        accountsError={accounts.error}
        retryAccounts={() => void accounts.refetch()}
      />
    )

  return (
    <div className={styles.page} data-testid="wd-page">
      <NavBar title={t('route.withdraw.title')} back="/mine" right={token != null && !isGuest ? recordsLink : undefined} />
      <main className={styles.body}>{body}</main>
    </div>
  )
}

function WithdrawForm({
  w,
  actType,
  setActType,
  accounts,
  accountsState,
  accountsError,
  retryAccounts,
}: {
  w: NonNullable<ReturnType<typeof useWallet>['data']>
  actType: ActType
  setActType: (a: ActType) => void
  accounts: PayoutAccount[] | undefined
  accountsState: 'loading' | 'error' | 'ok'
  accountsError: unknown
  retryAccounts: () => void
}) {
  const navigate = useNavigate()
  const [text, setText] = useState('')
  const [picked, setPicked] = useState<number | null>(null)
  const [touched, setTouched] = useState(false)
  const [sheet, setSheet] = useState(false)
  const [password, setPassword] = useState('')
  const [pwError, setPwError] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)
  const intent = useRef(new Intent('wd'))
  const withdraw = useWithdraw()

  // The picked account, if it is in the list shown (switching tabs or a
  // deletion elsewhere drops it).
  const account = accounts?.find((a) => a.id === picked) ?? (accounts?.length === 1 ? accounts[0] : undefined)
  const preview = previewWithdraw(text, w, account?.id ?? null)
  const amountProblem = preview.problem && preview.problem.kind !== 'account' ? preview.problem : null
  const showAmountError = amountProblem != null && (touched || text.trim() !== '')

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTouched(true)
    setServerError(null)
    if (preview.amount == null || preview.problem) return
    setPwError(null)
    setSheet(true)
  }

  const confirm = (e: FormEvent) => {
    e.preventDefault()
    if (preview.amount == null || !account || withdraw.isPending) return
    if (password === '') {
      setPwError(t('wd.passwordRequired'))
      return
    }
    const params = { amount: preview.amount, accountID: account.id }
    const idempotencyKey = intent.current.keyFor(params)
    setPwError(null)
    setServerError(null)
    withdraw.mutate(
      { ...params, passWord: password, idempotencyKey },
      {
        onSuccess: () => {
          intent.current.done()
          setSheet(false)
          setPassword('')
          setText('')
          setTouched(false)
          toast.success(t('wd.success'))
          navigate('/mine/withdraw/detail')
        },
        onError: (err) => {
          const tip = err instanceof ApiError ? err.tip : t('net.failed')
          if (err instanceof ApiError && err.status === 401) setPwError(tip)
          else setServerError(tip)
        },
      },
    )
  }

  return (
    <>
      <section className={styles.card} aria-label={t('wd.income')} data-testid="wd-balance">
        <p className={styles.cardLabel}>{t('wd.income')}</p>
        <p className={styles.cardValue} data-testid="wd-income">
          {yuan(w.income)}
        </p>
        <div className={styles.cardFoot}>
          <span data-testid="wd-frozen">{t('wd.frozen', { v: yuan(w.incomeFrozen) })}</span>
          <Link to="/mine/usershouyimx" className={styles.cardLink} data-testid="wd-shouyi">
            {t('route.usershouyimx.title')}
          </Link>
        </div>
      </section>

      <form onSubmit={submit} noValidate data-testid="wd-form">
        <section className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 className={styles.sectionTitle}>{t('wd.amount')}</h2>
          </div>
          <div className={styles.group}>
            <Field
              label="¥"
              labelClassName={styles.labelNarrow}
              value={text}
              onChange={(v) => {
                setText(v)
                setServerError(null)
              }}
              onBlur={() => setTouched(true)}
              placeholder={t('wd.amountPlaceholder')}
              inputMode="decimal"
              enterKeyHint="done"
              maxLength={13}
              className={`${styles.input} ${styles.bigInput}`}
              aria-label={t('wd.amount')}
              error={showAmountError ? problemText(amountProblem) : null}
              testid="wd-amount"
              after={
                <button
                  type="button"
                  className={styles.inline}
                  onClick={() => {
                    setText(yuan(maxWithdrawable(w)))
                    setTouched(true)
                  }}
                  data-testid="wd-all"
                >
                  {t('wd.all')}
                </button>
              }
            />
            <dl className={styles.lines} data-testid="wd-preview">
              <div className={styles.line}>
                <dt>{t('wd.fee', { p: w.feePercent })}</dt>
                <dd data-testid="wd-fee">¥{yuan(preview.fee)}</dd>
              </div>
              <div className={`${styles.line} ${styles.strong}`}>
                <dt>{t('wd.net')}</dt>
                <dd data-testid="wd-net">¥{yuan(preview.net)}</dd>
              </div>
            </dl>
          </div>
          <p className={styles.note} data-testid="wd-limits">
            {t('wd.limits', { min: yuan(w.withdrawMin), max: yuan(w.withdrawMax), count: w.withdrawDailyCount, daily: yuan(w.withdrawDailyMax) })}
          </p>
        </section>

        <section className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 className={styles.sectionTitle}>{t('wd.account')}</h2>
            <Link to={`/mine/address?type=${actType}`} className={`${styles.sectionLink} prima-hit`} data-testid="wd-manage">
              {t('wd.manage')}
            </Link>
          </div>
          <div className={styles.group}>
            <div className={styles.segmentRow}>
              <div className={styles.segment} role="group" aria-label={t('wd.account')}>
                {([1, 2] as const).map((k) => (
                  <button
                    key={k}
                    type="button"
                    className={actType === k ? styles.segOn : ''}
                    aria-pressed={actType === k}
                    onClick={() => {
                      setActType(k)
                      setPicked(null)
                    }}
                    data-testid={`wd-type-${k}`}
                  >
                    {k === 1 ? t('wd.bank') : t('wd.usdt')}
                  </button>
                ))}
              </div>
            </div>
            {accountsState === 'loading' ? (
              <StateView kind="loading" compact />
            ) : accountsState === 'error' ? (
              <StateView kind="error" compact error={accountsError} onRetry={retryAccounts} />
            ) : accounts && accounts.length > 0 ? (
              <div className={styles.accounts} role="radiogroup" aria-label={t('wd.account')} data-testid="wd-accounts">
                {accounts.map((a) => (
                  <div key={a.id} className={styles.option}>
                    <button
                      type="button"
                      role="radio"
                      aria-checked={account?.id === a.id}
                      className={styles.account}
                      onClick={() => setPicked(a.id)}
                      data-testid="wd-account"
                    >
                      <AccountLine account={a} />
                      <span className={`${styles.radio} ${account?.id === a.id ? styles.radioOn : ''}`} aria-hidden="true" />
                    </button>
                  </div>
                ))}
              </div>
            ) : (
              <div className={styles.segmentRow}>
                <p className={styles.note}>{actType === 1 ? t('wd.noBank') : t('wd.noUsdt')}</p>
                <Link
                  to={actType === 1 ? '/mine/add-bank-card' : '/mine/add-usdt'}
                  className={styles.secondary}
                  data-testid="wd-add-account"
                >
                  {actType === 1 ? t('wd.addBank') : t('wd.addUsdt')}
                </Link>
              </div>
            )}
          </div>
          {touched && preview.problem?.kind === 'account' && (
            <p className={styles.error} role="alert" data-testid="wd-account-error">
              {t('wd.err.account')}
            </p>
          )}
        </section>

        {serverError && !sheet && (
          <p className={styles.serverError} role="alert" data-testid="wd-error">
            {serverError}
          </p>
        )}
        <button type="submit" className={styles.primary} data-testid="wd-submit">
          {t('wd.submit')}
        </button>
      </form>

      {sheet && account && preview.amount != null && (
        <Sheet title={t('wd.confirmTitle')} onClose={() => setSheet(false)} busy={withdraw.isPending} testid="wd-sheet">
          <form onSubmit={confirm} noValidate>
            <div className={styles.group}>
              <dl className={styles.lines}>
                <div className={styles.line}>
                  <dt>{t('wd.amount')}</dt>
                  <dd>¥{yuan(preview.amount)}</dd>
                </div>
                <div className={styles.line}>
                  <dt>{t('wd.fee', { p: w.feePercent })}</dt>
                  <dd>¥{yuan(preview.fee)}</dd>
                </div>
                <div className={`${styles.line} ${styles.strong}`}>
                  <dt>{t('wd.net')}</dt>
                  <dd data-testid="wd-sheet-net">¥{yuan(preview.net)}</dd>
                </div>
                <div className={styles.line}>
                  <dt>{t('wd.to')}</dt>
                  <dd>
                    {accountMain(account)} <span className={styles.accountSub}>{accountSub(account)}</span>
                  </dd>
                </div>
              </dl>
            </div>
            <div className={styles.group} style={{ marginTop: 12 }}>
              <Field
                label={t('wd.password')}
                type="password"
                value={password}
                onChange={(v) => {
                  setPassword(v)
                  setPwError(null)
                }}
                placeholder={t('wd.passwordPlaceholder')}
                autoComplete="current-password"
                maxLength={32}
                enterKeyHint="go"
                error={pwError}
                testid="wd-password"
              />
            </div>
            {serverError && (
              <p className={styles.serverError} role="alert" data-testid="wd-error">
                {serverError}
              </p>
            )}
            <div className={styles.sheetButtons}>
              <button type="button" className={styles.cancel} onClick={() => setSheet(false)} disabled={withdraw.isPending}>
                {t('common.cancel')}
              </button>
              <button type="submit" className={styles.primary} disabled={withdraw.isPending} data-testid="wd-confirm">
                {withdraw.isPending && <Spinner size={16} />}
                {t('wd.confirm')}
              </button>
            </div>
          </form>
        </Sheet>
      )}
    </>
  )
}
