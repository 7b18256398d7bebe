// help (/mine/help): the FAQ from the remote configuration (FAQ entries:
// title = question, url = the answer's text, or a link to open), one
// question open at a time, and customer service below for what it does
// not answer.
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { t } from '@/i18n'
import { openLink } from '@/lib/links'
import { faqAnswer } from '@/lib/support'
import { ChevronRightIcon } from '@/components/icons'
import { NavBar } from '@/components/NavBar'
import { StateView } from '@/components/StateView'
import { useCustomerService } from '@/components/CustomerService'
import { useSourceList } from '@/features/support/api/get-source'
import type { SupportEntry } from '@/features/support/types'
import styles from '@/features/support/components/support.module.css'

function Question({ e, open, onToggle }: { e: SupportEntry; open: boolean; onToggle: () => void }) {
  const navigate = useNavigate()
  const a = faqAnswer(e.url)
  const panel = `faq-a-${e.id}`
  return (
    <div className={`${styles.row} ${open ? styles.open : ''}`} data-testid="faq-item">
      <button type="button" className={styles.question} aria-expanded={open} aria-controls={panel} onClick={onToggle} data-testid="faq-question">
        <span>{e.title}</span>
        <ChevronRightIcon className={styles.chevron} size={16} />
      </button>
      {open && (
        <div id={panel} className={styles.answer} data-testid="faq-answer">
          {a.kind === 'text' ? (
            a.text
          ) : (
            <button type="button" className={styles.linkBtn} onClick={() => openLink(a.url, navigate)}>
              {t('sup.openLink')}
            </button>
          )}
        </div>
      )}
    </div>
  )
}

export default function HelpPage() {
  const q = useSourceList('FAQ')
  const cs = useCustomerService()
  const [open, setOpen] = useState<number | null>(null)

  let body
  if (q.isPending) body = <StateView kind="loading" />
  else if (q.isError) body = <StateView kind="error" error={q.error} onRetry={() => q.refetch()} />
  else if (q.data.length === 0) body = <StateView kind="empty" title={t('sup.faqEmpty')} />
  else
    body = (
      <div className={styles.group} data-testid="faq-list">
        {q.data.map((e, i) => (
          <Question key={e.id || i} e={e} open={open === i} onToggle={() => setOpen(open === i ? null : i)} />
        ))}
      </div>
    )

  return (
    <div className={styles.page} data-testid="help-page">
      <NavBar title={t('route.help.title')} back="/mine" />
      <main className={styles.body}>
        {body}
        <button type="button" className={`${styles.submit} prima-hit`} onClick={cs.open} data-testid="help-cust">
          {t('sup.contactCust')}
        </button>
      </main>
    </div>
  )
}
