// One labelled input of the sign-in forms, iOS grouped-list style, with its
// validation message under it. Password fields get a show/hide toggle.
import { useId, useState, type InputHTMLAttributes, type ReactNode } from 'react'
import { t } from '@/i18n'
import styles from './AuthForm.module.css'

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string
  value: string
  onChange: (v: string) => void
  error?: string | null
  hint?: string
  testid: string
  after?: ReactNode // a control at the end of the row (send code)
}

export function Field({ label, value, onChange, error, hint, testid, after, type = 'text', ...rest }: Props) {
  const id = useId()
  const [shown, setShown] = useState(false)
  const isPassword = type === 'password'
  const msgId = `${id}-msg`
  return (
    <div className={styles.field}>
      <div className={`${styles.row} ${error ? styles.invalid : ''}`}>
        <label htmlFor={id} className={styles.label}>
          {label}
        </label>
        <input
          id={id}
          className={styles.input}
          type={isPassword && shown ? 'text' : type}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? msgId : undefined}
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          data-testid={testid}
          {...rest}
        />
        {isPassword && (
          <button
            type="button"
            className={`${styles.eye} prima-hit`}
            onClick={() => setShown((v) => !v)}
            aria-label={shown ? t('form.hidePassword') : t('form.showPassword')}
            aria-pressed={shown}
          >
            <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
              <path d="M2.5 12S6 5.5 12 5.5 21.5 12 21.5 12 18 18.5 12 18.5 2.5 12 2.5 12z" />
              <circle cx="12" cy="12" r="3" />
              {!shown && <path d="M4 20 20 4" />}
            </svg>
          </button>
        )}
        {after}
      </div>
      {(error || hint) && (
        <p id={msgId} className={error ? styles.error : styles.hint} data-testid={error ? `${testid}-error` : undefined}>
          {error ?? hint}
        </p>
      )}
    </div>
  )
}
