// usershouyimx (/mine/usershouyimx): income details. What can be withdrawn
// and what is still pending (commission, creator earnings; GET
// mine/income/summary) with any refund debt; the month's totals (in, out,
// by type, each type a link to its entries) summed from the income entries
// of that Asia/Shanghai month, and the exchange of income to coins
// (goldExchange): amount in yuan, the coins it buys at the configured rate
// (rounded down, as the server does), confirmed in a sheet, sent with one
// idempotency key per intent.
import { useRef, useState, type FormEvent } from 'react'
import { Link, useSearchParams } from 'react-router'
import { t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { toast } from '@/lib/toast'
import { parseYuan, yuan, type WalletSummary } from '@/lib/wallet'
import { ChevronRightIcon } from '@/components/icons'
import { NavBar } from '@/components/NavBar'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { exchangeCoins, exchangeTaken, useExchange } from '@/features/withdraw/api/exchange'
import { MONTH_MAX_PAGES, MONTH_PAGE_SIZE, useMonthIncomes } from '@/features/withdraw/api/records'
import { useWallet } from '@/features/withdraw/api/wallet'
import { Field } from '@/features/withdraw/components/Field'
import { MonthPicker, typeLabel } from '@/features/withdraw/components/Filters'
import { GuestGate, needsRegistration } from '@/features/withdraw/components/GuestGate'
import { IncomeSummaryCard } from '@/features/withdraw/components/IncomeSummary'
import { Sheet } from '@/features/withdraw/components/Sheet'
import { recentMonths, shanghaiMonth, signed, sumByType, validMonth } from '@/features/withdraw/format'
import { Intent } from '@/features/withdraw/intent'
import styles from '@/features/withdraw/components/ui.module.css'

// exchangeProblem: what is wrong with the typed amount, or null.
export function exchangeProblem(cents: number | null, text: string, w: WalletSummary): string | null {
  if (cents == null) return text.trim() === '' ? null : t('wd.err.amount')
  if (cents < w.exchangeMin) return t('sy.min', { v: yuan(w.exchangeMin) })
  if (cents > w.income) return t('wd.err.balance')
  if (exchangeCoins(cents, w.exchangeRate) < 1) return t('sy.err.zero')
  return null
}

export default function IncomeDetailPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const [params, setParams] = useSearchParams()
  const now = shanghaiMonth()
  const month = validMonth(params.get('month') ?? '') ? params.get('month')! : now
  const months = recentMonths(24)
  const entries = useMonthIncomes(month, token)
  const wallet = useWallet(token)

  let totals
  if (token == null) totals = <StateView kind="empty" title={t('wd.signIn')} />
  else if (entries.isPending) totals = <StateView kind="loading" compact />
  else if (entries.isError) totals = <StateView kind="error" compact error={entries.error} onRetry={() => void entries.refetch()} />
  else {
    const sum = sumByType(entries.data.list)
    totals = (
      <>
        <div className={styles.totals}>
          <div className={styles.total}>
            <p className={styles.totalLabel}>{t('sy.total')}</p>
            <p className={`${styles.totalValue} ${styles.plus}`} data-testid="sy-in">
              {signed(sum.in, yuan(sum.in))}
            </p>
          </div>
          <div className={styles.total}>
            <p className={styles.totalLabel}>{t('sy.out')}</p>
            <p className={styles.totalValue} data-testid="sy-out">
              {yuan(sum.out)}
            </p>
          </div>
        </div>
        <section className={styles.section}>
          <div className={styles.sectionHead}>
            <h2 className={styles.sectionTitle}>{t('sy.byType')}</h2>
            <Link to={`/mine/userincomerecord?month=${month}`} className={`${styles.sectionLink} prima-hit`} data-testid="sy-records">
              {t('sy.records')}
            </Link>
          </div>
          {sum.byType.length === 0 ? (
            <StateView kind="empty" compact title={t('sy.noIncome')} />
          ) : (
            <ul className={styles.records} style={{ margin: 0 }} data-testid="sy-types">
              {sum.byType.map((r) => (
                <li key={r.type} data-type={r.type}>
                  <Link to={`/mine/userincomerecord?type=${r.type}&month=${month}`} className={`${styles.record} ${styles.recordLink}`} data-testid="sy-type-link">
                    <div className={styles.recordMain}>
                      <p className={styles.recordTitle}>{typeLabel(r.type)}</p>
                    </div>
                    <p className={`${styles.amount} ${r.total > 0 ? styles.plus : ''}`}>{signed(r.total, yuan(r.total))}</p>
                    <ChevronRightIcon className={styles.chevron} />
                  </Link>
                </li>
              ))}
            </ul>
          )}
          {entries.data.truncated && <p className={styles.note}>{t('sy.partial', { n: MONTH_PAGE_SIZE * MONTH_MAX_PAGES })}</p>}
        </section>
      </>
    )
  }

  return (
    <div className={styles.page} data-testid="sy-page">
      <NavBar title={t('route.usershouyimx.title')} back="/mine" />
      <main className={styles.body}>
        <IncomeSummaryCard token={token} isGuest={isGuest === true} />
        <div style={{ margin: '0 -12px' }}>
          <MonthPicker
            value={month}
            months={months.includes(month) ? months : [month, ...months]}
            allowAll={false}
            onChange={(v) => setParams(v && v !== now ? { month: v } : {}, { replace: true })}
          />
        </div>
        {totals}
        {token != null &&
          (needsRegistration(isGuest, wallet.error) ? null : wallet.isPending ? (
            <StateView kind="loading" compact />
          ) : wallet.isError ? (
            <StateView kind="error" compact error={wallet.error} onRetry={() => void wallet.refetch()} />
          ) : (
            <Exchange w={wallet.data} isGuest={isGuest === true} />
          ))}
      </main>
    </div>
  )
}

function Exchange({ w, isGuest }: { w: WalletSummary; isGuest: boolean }) {
  const [text, setText] = useState('')
  const [sheet, setSheet] = useState(false)
  const [shown, setShown] = useState(false)
  const [serverError, setServerError] = useState<string | null>(null)
  const intent = useRef(new Intent('ex'))
  const exchange = useExchange()
  const cents = parseYuan(text)
  const coins = cents == null ? 0 : exchangeCoins(cents, w.exchangeRate)
  const taken = exchangeTaken(coins, w.exchangeRate)
  const problem = exchangeProblem(cents, text, w)

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setShown(true)
    setServerError(null)
    if (cents == null || problem) return
    setSheet(true)
  }

  const confirm = () => {
    if (cents == null || exchange.isPending) return
    const idempotencyKey = intent.current.keyFor({ amount: cents })
    exchange.mutate(
      { amount: cents, idempotencyKey },
      {
        onSuccess: (r) => {
          intent.current.done()
          setSheet(false)
          setText('')
          setShown(false)
          toast.success(t('sy.done', { n: r.coins }))
        },
        onError: (err) => setServerError(err instanceof ApiError ? err.tip : t('net.failed')),
      },
    )
  }

  return (
    <section className={styles.section} aria-labelledby="sy-exchange">
      <div className={styles.sectionHead}>
        <h2 id="sy-exchange" className={styles.sectionTitle}>
          {t('sy.exchangeTitle')}
        </h2>
        <span className={styles.note} style={{ margin: 0 }} data-testid="sy-rate">
          {t('sy.rate', { rate: w.exchangeRate })}
        </span>
      </div>
      {isGuest ? (
        <GuestGate />
      ) : (
        <form onSubmit={submit} noValidate data-testid="sy-form">
          <div className={styles.group}>
            <Field
              label={t('sy.amount')}
              value={text}
              onChange={(v) => {
                setText(v)
                setServerError(null)
              }}
              onBlur={() => setShown(true)}
              placeholder={t('wd.amountPlaceholder')}
              inputMode="decimal"
              maxLength={13}
              error={shown || text.trim() !== '' ? problem : null}
              testid="sy-amount"
              after={
                <button type="button" className={styles.inline} onClick={() => setText(yuan(Math.max(0, w.income)))} data-testid="sy-all">
                  {t('wd.all')}
                </button>
              }
            />
            <dl className={styles.lines}>
              <div className={styles.line}>
                <dt>{t('wd.income')}</dt>
                <dd data-testid="sy-income">{yuan(w.income)}</dd>
              </div>
              <div className={`${styles.line} ${styles.strong}`}>
                <dt>{t('sy.get')}</dt>
                <dd data-testid="sy-coins">
                  {coins} {t('rec.coinsUnit')}
                </dd>
              </div>
              {cents != null && coins > 0 && taken < cents && (
                <div className={styles.line}>
                  <dt>{t('sy.taken')}</dt>
                  <dd data-testid="sy-taken">¥{yuan(taken)}</dd>
                </div>
              )}
            </dl>
          </div>
          <p className={styles.note}>{t('sy.min', { v: yuan(w.exchangeMin) })}</p>
          {serverError && !sheet && (
            <p className={styles.serverError} role="alert" data-testid="sy-error">
              {serverError}
            </p>
          )}
          <button type="submit" className={styles.primary} data-testid="sy-submit">
            {t('sy.submit')}
          </button>
          <Link to="/mine/withdraw" className={styles.secondary} style={{ marginTop: 12 }} data-testid="sy-withdraw">
            {t('sy.withdraw')}
          </Link>
        </form>
      )}
      {sheet && cents != null && (
        <Sheet title={t('sy.exchangeTitle')} onClose={() => setSheet(false)} busy={exchange.isPending} testid="sy-sheet">
          <p className={styles.sheetText} data-testid="sy-confirm-text">
            {t('sy.confirm', { v: yuan(taken), n: coins })}
          </p>
          {serverError && (
            <p className={styles.serverError} role="alert" data-testid="sy-error">
              {serverError}
            </p>
          )}
          <div className={styles.sheetButtons}>
            <button type="button" className={styles.cancel} onClick={() => setSheet(false)} disabled={exchange.isPending}>
              {t('common.cancel')}
            </button>
            <button type="button" className={styles.primary} onClick={confirm} disabled={exchange.isPending} data-testid="sy-confirm">
              {exchange.isPending && <Spinner size={16} />}
              {t('wd.confirm')}
            </button>
          </div>
        </Sheet>
      )}
    </section>
  )
}
