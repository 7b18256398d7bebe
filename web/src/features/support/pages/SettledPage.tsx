// settled (/mine/settled): the creator application. No application (or a
// rejected one, with its reason): the form. Pending or approved: the state.
// The operators' decision arrives as a system notice too.
import { useState } from 'react'
import { hasMessage, t } from '@/i18n'
import { ApiError } from '@/lib/api'
import { relativeTime } from '@/lib/time'
import { toast } from '@/lib/toast'
import { SETTLED_LIMITS, settledProblems, type SettledField } from '@/lib/support'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useUserStore } from '@/stores/user'
import { useApply, useSettled } from '@/features/support/api/settled'
import type { Application, Settled } from '@/features/support/types'
import styles from '@/features/support/components/support.module.css'

function categoryLabel(c: string): string {
  const key = `sup.cat.${c}`
  return hasMessage(key) ? t(key) : c
}

const LABEL: Record<SettledField, 'sup.st.name' | 'sup.st.contact' | 'sup.st.intro'> = {
  name: 'sup.st.name',
  contact: 'sup.st.contact',
  intro: 'sup.st.intro',
}

function StateCard({ a }: { a: Application }) {
  const [title, text, chip] =
    a.status === 'pending'
      ? [t('sup.st.pending'), t('sup.st.pendingHint'), '']
      : a.status === 'approved'
        ? [t('sup.st.approved'), t('sup.st.approvedHint'), styles.chipDone]
        : [t('sup.st.rejected'), t('sup.st.reason', { r: a.reason }), styles.chipBad]
  return (
    <div className={`${styles.group} ${styles.state}`} data-testid="settled-state" data-state={a.status}>
      <span className={`${styles.chip} ${chip}`}>{categoryLabel(a.category)}</span>
      <p className={styles.stateTitle} style={{ marginTop: 10 }}>
        {title}
      </p>
      <p className={styles.stateText} data-testid="settled-state-text">
        {text}
      </p>
      <p className={styles.stateText}>
        {a.name} · {t('sup.st.submitted', { t: relativeTime(a.createdAt) })}
      </p>
    </div>
  )
}

function Form({ s, token }: { s: Settled; token: string }) {
  const prev = s.application
  const [v, setV] = useState({ name: prev?.name ?? '', contact: prev?.contact ?? '', intro: prev?.intro ?? '' })
  const [category, setCategory] = useState(prev?.category ?? s.categories[0] ?? 'other')
  const [tried, setTried] = useState(false)
  const apply = useApply(token)
  const problems = settledProblems(v)
  const submit = () => {
    setTried(true)
    if (problems.length > 0) return
    apply.mutate(
      { name: v.name.trim(), contact: v.contact.trim(), intro: v.intro.trim(), category },
      {
        onSuccess: () => toast.success(t('sup.st.sent')),
        onError: (e) => toast.fail(e instanceof ApiError && e.tip ? e.tip : t('state.error')),
      },
    )
  }
  const input = (f: 'name' | 'contact', ph: 'sup.st.namePh' | 'sup.st.contactPh') => (
    <div className={`${styles.row} ${styles.field}`}>
      <label className={styles.fieldLabel} htmlFor={`st-${f}`}>
        {t(LABEL[f])}
      </label>
      <input
        id={`st-${f}`}
        className={styles.input}
        value={v[f]}
        maxLength={SETTLED_LIMITS[f][1] + 10}
        placeholder={t(ph)}
        aria-invalid={tried && problems.includes(f)}
        onChange={(e) => setV({ ...v, [f]: e.target.value })}
        data-testid={`st-${f}`}
      />
    </div>
  )
  return (
    <form
      className={styles.section}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <div className={styles.group}>
        {input('name', 'sup.st.namePh')}
        {input('contact', 'sup.st.contactPh')}
        <div className={`${styles.row} ${styles.field}`}>
          <label className={styles.fieldLabel} htmlFor="st-category">
            {t('sup.st.category')}
          </label>
          <select id="st-category" className={styles.select} value={category} onChange={(e) => setCategory(e.target.value)} data-testid="st-category">
            {s.categories.map((c) => (
              <option key={c} value={c}>
                {categoryLabel(c)}
              </option>
            ))}
          </select>
        </div>
        <div className={styles.row}>
          <label className={styles.fieldCol} htmlFor="st-intro">
            {t('sup.st.intro')}
          </label>
          <textarea
            id="st-intro"
            className={styles.textarea}
            style={{ minHeight: 110, paddingTop: 8 }}
            value={v.intro}
            placeholder={t('sup.st.introPh')}
            aria-invalid={tried && problems.includes('intro')}
            onChange={(e) => setV({ ...v, intro: e.target.value })}
            data-testid="st-intro"
          />
        </div>
      </div>
      {tried &&
        problems.map((f) => (
          <p key={f} className={styles.error} role="alert" data-testid="st-error">
            {t('sup.err.range', { field: t(LABEL[f]), min: SETTLED_LIMITS[f][0], max: SETTLED_LIMITS[f][1] })}
          </p>
        ))}
      <button type="submit" className={`${styles.submit} prima-hit`} disabled={apply.isPending} data-testid="st-submit">
        {s.state === 'rejected' ? t('sup.st.reapply') : t('sup.st.submit')}
      </button>
    </form>
  )
}

export default function SettledPage() {
  const token = useUserStore((s) => s.token)
  const q = useSettled(token)
  let body
  if (token == null) body = <StateView kind="empty" title={t('sup.st.signIn')} />
  else if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => q.refetch()} />
  else
    body = (
      <>
        {q.data.application ? <StateCard a={q.data.application} /> : <p className={styles.hint}>{t('sup.st.none')}</p>}
        {(q.data.state === 'none' || q.data.state === 'rejected') && <Form s={q.data} token={token} key={q.data.application?.id ?? 0} />}
      </>
    )
  return (
    <div className={styles.page} data-testid="settled-page">
      <NavBar title={t('route.settled.title')} back="/mine" />
      <main className={styles.body}>{body}</main>
    </div>
  )
}
