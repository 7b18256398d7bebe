// usershareshenqing (/mine/usershareshenqing): the promoter application
// (推广申请). My state (none, pending, approved, or rejected with the
// operator's reason), my commission so far, the commission rates per level
// of members and of promoters side by side (mine marked), how many days
// commission waits before it can be withdrawn, and the form (channel,
// contact, intro) while there is nothing pending or approved. The form
// checks what the server checks; the server's tip is shown when it refuses.
// The operator's decision arrives as a system notice, which refetches the
// page (app/realtime.ts).
import { Fragment, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { useQueryClient } from '@tanstack/react-query'
import { t } from '@/i18n'
import '@/i18n/earn'
import { ApiError } from '@/lib/api'
import { percent } from '@/lib/earn'
import { chars } from '@/lib/support'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { MoneyCard } from '@/components/MoneyCard'
import { NavBar } from '@/components/NavBar'
import { PullRefresh } from '@/components/PullRefresh'
import { needsAccount, RegisterGate } from '@/components/RegisterGate'
import { Spinner } from '@/components/Spinner'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { inviteKeys } from '@/features/invite/keys'
import { useApplyPromoter, usePromoter, type Promoter } from '@/features/invite/promoter'
import { PROMOTER_FIELDS, PROMOTER_LIMITS, promoterProblems, type FieldProblem, type PromoterField } from '@/features/invite/rules'
import { levelName, settleText, tierLabel } from '@/features/invite/words'
import styles from '@/features/invite/earn.module.css'

const LABEL = { channel: 'earn.f.channel', contact: 'earn.f.contact', intro: 'earn.f.intro' } as const
const PLACEHOLDER = { channel: 'earn.f.channelPh', contact: 'earn.f.contactPh', intro: 'earn.f.introPh' } as const

function problemText(field: PromoterField, p: FieldProblem): string {
  const [min, max] = PROMOTER_LIMITS[field]
  if (p === 'lines') return t('earn.err.lines', { field: t(LABEL[field]) })
  if (p === 'control') return t('earn.err.control', { field: t(LABEL[field]) })
  return min === 0 ? t('earn.err.max', { field: t(LABEL[field]), max }) : t('earn.err.range', { field: t(LABEL[field]), min, max })
}

function StateCard({ p }: { p: Promoter }) {
  const a = p.application
  const [title, text] =
    p.state === 'pending'
      ? [t('earn.st.pending'), t('earn.st.pendingHint')]
      : p.state === 'approved'
        ? [t('earn.st.approved'), t('earn.st.approvedHint')]
        : p.state === 'rejected'
          ? [t('earn.st.rejected'), t('earn.st.rejectedHint')]
          : [t('earn.st.none'), t('earn.st.noneHint')]
  return (
    <section className={`${styles.group} ${styles.state}`} data-testid="promoter-state" data-state={p.state}>
      <span className={`${styles.stateDot} ${styles[`dot-${p.state}`]}`} aria-hidden="true" />
      <div className={styles.stateMain}>
        <h2 className={styles.stateTitle}>{title}</h2>
        <p className={styles.stateText}>{text}</p>
        {p.state === 'rejected' && p.reason && (
          <p className={styles.reason} data-testid="promoter-reason">
            {t('earn.st.reason', { r: p.reason })}
          </p>
        )}
        {a && p.state !== 'none' && (
          <p className={styles.stateMeta} data-testid="promoter-applied">
            {a.channel} · {p.state === 'pending' || !a.decidedAt ? t('earn.st.applied', { t: relativeTime(a.appliedAt) }) : t('earn.st.decided', { t: relativeTime(a.decidedAt) })}
          </p>
        )}
      </div>
    </section>
  )
}

function Rates({ p }: { p: Promoter }) {
  const levels = Math.max(p.memberRates.length, p.promoterRates.length)
  const mine = (tier: 'member' | 'promoter') => (p.tier === tier ? styles.mine : '')
  return (
    <section className={styles.section} aria-labelledby="promoter-rates">
      <h2 id="promoter-rates" className={styles.sectionTitle}>
        {t('earn.rates')}
      </h2>
      <div className={styles.group}>
        <table className={styles.rates} data-testid="promoter-rates" data-tier={p.tier}>
          <thead>
            <tr>
              <th scope="col">{t('earn.level')}</th>
              <th scope="col" className={mine('member')}>
                {t('earn.tier.member')}
                {p.tier === 'member' && <span className={styles.current}>{t('earn.current')}</span>}
              </th>
              <th scope="col" className={mine('promoter')}>
                {t('earn.tier.promoter')}
                {p.tier === 'promoter' && <span className={styles.current}>{t('earn.current')}</span>}
              </th>
            </tr>
          </thead>
          <tbody>
            {Array.from({ length: levels }, (_, i) => (
              <tr key={i} data-testid="promoter-rate" data-level={i + 1}>
                <th scope="row">{levelName(i + 1)}</th>
                <td className={mine('member')} data-testid="rate-member">
                  {percent(p.memberRates[i] ?? 0)}
                </td>
                <td className={mine('promoter')} data-testid="rate-promoter">
                  {percent(p.promoterRates[i] ?? 0)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className={styles.notes}>
        <li data-testid="promoter-settle">{settleText(p.settleDays)}</li>
        <li>{t('earn.ruleLevels')}</li>
        <li>{t('earn.ruleRefund')}</li>
      </ul>
    </section>
  )
}

function Form({ p, token }: { p: Promoter; token: string }) {
  const prev = p.application
  const [v, setV] = useState<Record<PromoterField, string>>({ channel: prev?.channel ?? '', contact: prev?.contact ?? '', intro: prev?.intro ?? '' })
  const [touched, setTouched] = useState<Partial<Record<PromoterField, boolean>>>({})
  const [tried, setTried] = useState(false)
  const apply = useApplyPromoter(token)
  const problems = promoterProblems(v)
  const edit = (f: PromoterField, value: string) => {
    setV((x) => ({ ...x, [f]: value }))
    if (apply.error) apply.reset()
  }
  const refusal = apply.error instanceof ApiError ? apply.error.tip : apply.error ? t('net.failed') : null

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (apply.isPending || Object.keys(problems).length > 0) return
    apply.mutate(
      { channel: v.channel.trim(), contact: v.contact.trim(), intro: v.intro.trim() },
      { onSuccess: () => toast.success(t('earn.sent')) },
    )
  }

  const field = (f: PromoterField) => {
    const shown = (tried || touched[f]) && problems[f]
    const [, max] = PROMOTER_LIMITS[f]
    const n = chars(v[f].trim())
    const common = {
      id: `promoter-${f}`,
      value: v[f],
      placeholder: t(PLACEHOLDER[f]),
      'aria-invalid': Boolean(shown),
      'aria-describedby': `promoter-${f}-count${shown ? ` promoter-${f}-error` : ''}`,
      onBlur: () => setTouched((x) => ({ ...x, [f]: true })),
      'data-testid': `promoter-${f}`,
    }
    return (
      <div className={`${styles.field} ${shown ? styles.invalid : ''}`}>
        <div className={styles.fieldHead}>
          <label htmlFor={`promoter-${f}`} className={styles.fieldLabel}>
            {t(LABEL[f])}
            {PROMOTER_LIMITS[f][0] === 0 && <span className={styles.optional}>{t('earn.f.optional')}</span>}
          </label>
          <span id={`promoter-${f}-count`} className={`${styles.counter} ${n > max ? styles.over : ''}`} data-testid={`promoter-${f}-count`}>
            {n}/{max}
          </span>
        </div>
        {f === 'intro' ? (
          <textarea {...common} className={styles.textarea} rows={4} onChange={(e) => edit('intro', e.target.value)} />
        ) : (
          <input {...common} className={styles.input} enterKeyHint="next" autoComplete="off" onChange={(e) => edit(f, e.target.value)} />
        )}
        {shown && (
          <p id={`promoter-${f}-error`} className={styles.fieldError} role="alert" data-testid={`promoter-${f}-error`}>
            {problemText(f, problems[f]!)}
          </p>
        )}
      </div>
    )
  }

  return (
    <form className={styles.section} onSubmit={submit} noValidate data-testid="promoter-form" aria-labelledby="promoter-form-title">
      <h2 id="promoter-form-title" className={styles.sectionTitle}>
        {p.state === 'rejected' ? t('earn.formAgain') : t('earn.form')}
      </h2>
      <div className={styles.group}>
        {PROMOTER_FIELDS.map((f) => (
          <Fragment key={f}>{field(f)}</Fragment>
        ))}
      </div>
      {refusal && !apply.isPending && (
        <p className={styles.serverError} role="alert" data-testid="promoter-error">
          {refusal}
        </p>
      )}
      <button type="submit" className={`${styles.primary} prima-hit`} disabled={apply.isPending} aria-busy={apply.isPending} data-testid="promoter-submit">
        {apply.isPending && <Spinner size={16} />}
        {apply.isPending ? t('earn.sending') : p.state === 'rejected' ? t('earn.reapply') : t('earn.apply')}
      </button>
    </form>
  )
}

function Body({ p, token }: { p: Promoter; token: string }) {
  return (
    <>
      <MoneyCard
        title={t('earn.myCommission')}
        badge={
          <span className={styles.tierBadge} data-testid="promoter-tier" data-tier={p.tier}>
            {tierLabel(p.tier)}
          </span>
        }
        figures={[
          { label: t('earn.pending'), cents: p.pendingCents, testid: 'promoter-pending' },
          { label: t('earn.settled'), cents: p.settledCents, testid: 'promoter-settled' },
        ]}
        foot={
          <>
            <Link to="/mine/commissions" data-testid="promoter-commissions">
              {t('earn.commissionList')}
            </Link>
            <Link to="/mine/pushdata" data-testid="promoter-data">
              {t('route.agentdata.title')}
            </Link>
          </>
        }
      />
      <StateCard p={p} />
      <Rates p={p} />
      {(p.state === 'none' || p.state === 'rejected') && <Form p={p} token={token} key={p.application?.appliedAt ?? 'new'} />}
    </>
  )
}

export default function PromoterPage() {
  const token = useUserStore((s) => s.token)
  const isGuest = useUserStore((s) => s.user?.isGuest)
  const q = usePromoter(isGuest ? null : token)
  const qc = useQueryClient()
  let body
  if (token == null) body = <StateView kind="empty" title={t('inv.signIn')} />
  else if (needsAccount(isGuest, q.error)) body = <RegisterGate hint={t('earn.guestPromoter')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => void q.refetch()} />
  else body = <Body p={q.data} token={token} />
  return (
    <div className={styles.page} data-testid="usershareshenqing">
      <NavBar title={t('route.usershareshenqing.title')} back="/mine" />
      <main className={styles.body}>
        <PullRefresh onRefresh={() => qc.invalidateQueries({ queryKey: inviteKeys.promoter(token) })}>
          <div className={styles.fill}>{body}</div>
        </PullRefresh>
      </main>
    </div>
  )
}
