// The report sheet: the reasons from GET vid/report/reasons as a list of
// buttons; picking one sends the report. A modal dialog: focus moves in,
// Escape and the backdrop close it.
import { useEffect, useRef } from 'react'
import { t } from '@/i18n'
import { toast } from '@/lib/toast'
import { StateView } from '@/components/StateView'
import { useReport, useReportReasons } from '@/features/video/api/report'
import styles from './ReportSheet.module.css'

export function ReportSheet({ id, onClose }: { id: number; onClose: () => void }) {
  const reasons = useReportReasons(true)
  const report = useReport(id)
  const panel = useRef<HTMLDivElement>(null)

  useEffect(() => {
    panel.current?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [onClose])

  const send = (code: string) =>
    report.mutate(code, {
      onSuccess: (r) => {
        toast.success(r.isNew ? t('report.done') : t('report.already'))
        onClose()
      },
    })

  return (
    <div className={styles.backdrop} onClick={onClose} data-testid="report-sheet">
      <div
        ref={panel}
        className={styles.panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="report-title"
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="report-title" className={styles.title}>
          {t('report.title')}
        </h2>
        {reasons.isPending ? (
          <StateView kind="loading" compact />
        ) : reasons.isError ? (
          <StateView kind="error" compact error={reasons.error} onRetry={() => void reasons.refetch()} />
        ) : (
          <ul className={styles.list}>
            {reasons.data.map((r) => (
              <li key={r.code}>
                <button
                  type="button"
                  className={styles.reason}
                  disabled={report.isPending}
                  onClick={() => send(r.code)}
                  data-testid="report-reason"
                  data-code={r.code}
                >
                  {r.label}
                </button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" className={styles.cancel} onClick={onClose} data-testid="report-cancel">
          {t('report.cancel')}
        </button>
      </div>
    </div>
  )
}
