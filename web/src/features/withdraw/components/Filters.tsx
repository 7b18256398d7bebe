// The filters above a record list: type chips (one row that scrolls
// sideways) and a month picker.
import { t, hasMessage } from '@/i18n'
import styles from './ui.module.css'

export function typeLabel(type: string): string {
  const key = `rec.type.${type}`
  return hasMessage(key) ? t(key) : type
}

// billTitle is an entry's title in the app's language; the server's
// (zh-CN) title only for a type this build does not know yet.
export function billTitle(type: string, server: string): string {
  const key = `rec.title.${type}`
  return hasMessage(key) ? t(key) : server || typeLabel(type)
}

export function TypeChips({ types, value, onChange }: { types: readonly string[]; value: string; onChange: (v: string) => void }) {
  return (
    <div className={styles.chips} role="group" aria-label={t('rec.filter')} data-testid="rec-types">
      {['', ...types].map((ty) => (
        <button
          key={ty || 'all'}
          type="button"
          className={`${styles.chip} ${value === ty ? styles.chipOn : ''}`}
          aria-pressed={value === ty}
          onClick={() => onChange(ty)}
          data-testid={`rec-type-${ty || 'all'}`}
        >
          {ty ? typeLabel(ty) : t('rec.all')}
        </button>
      ))}
    </div>
  )
}

// MonthPicker: a select of the last months (Asia/Shanghai), newest first;
// allowAll adds 全部月份 (value "").
export function MonthPicker({ value, onChange, months, allowAll = true }: { value: string; onChange: (v: string) => void; months: string[]; allowAll?: boolean }) {
  return (
    <label className={styles.month}>
      <span className={styles.monthLabel}>{t('rec.month')}</span>
      <select className={styles.monthSelect} value={value} onChange={(e) => onChange(e.target.value)} data-testid="rec-month">
        {allowAll && <option value="">{t('rec.allMonths')}</option>}
        {months.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </label>
  )
}
