// One labelled input of the payout and money forms, with its message under
// it (the error when there is one, else the hint).
import { useId, type InputHTMLAttributes, type ReactNode } from 'react'
import styles from './ui.module.css'

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string
  value: string
  onChange: (v: string) => void
  error?: string | null
  hint?: string
  testid: string
  after?: ReactNode
  labelClassName?: string
}

export function Field({ label, value, onChange, error, hint, testid, after, labelClassName, type = 'text', ...rest }: Props) {
  const id = useId()
  const msgId = `${id}-msg`
  return (
    <div className={styles.field}>
      <div className={`${styles.row} ${error ? styles.invalid : ''}`}>
        <label htmlFor={id} className={`${styles.label} ${labelClassName ?? ''}`}>
          {label}
        </label>
        <input
          id={id}
          className={styles.input}
          type={type}
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
