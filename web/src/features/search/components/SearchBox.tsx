// The search field of every search page: a rounded iOS field with the
// magnifier, a clear button while it holds text, and 搜索 on the right.
// Enter submits (the phone keyboard's 搜索 key, as the input is type=search
// inside a form).
import { useRef, type FormEvent } from 'react'
import { t } from '@/i18n'
import styles from './search.module.css'

interface Props {
  value: string
  onChange: (v: string) => void
  onSubmit: (v: string) => void
  autoFocus?: boolean
  onFocus?: () => void
}

export function SearchBox({ value, onChange, onSubmit, autoFocus, onFocus }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSubmit(value)
  }
  return (
    <form className={styles.boxRow} onSubmit={submit} role="search" action="">
      <label className={styles.field}>
        <svg viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" className={styles.glass}>
          <circle cx="11" cy="11" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="m16 16 4.5 4.5" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <input
          ref={input}
          type="search"
          enterKeyHint="search"
          className={styles.input}
          value={value}
          placeholder={t('search.placeholder')}
          aria-label={t('search.placeholder')}
          autoFocus={autoFocus}
          autoComplete="off"
          autoCorrect="off"
          autoCapitalize="off"
          spellCheck={false}
          maxLength={200}
          onChange={(e) => onChange(e.target.value)}
          onFocus={onFocus}
          data-testid="search-input"
        />
        {value !== '' && (
          <button
            type="button"
            className={styles.clear}
            aria-label={t('search.clear')}
            onClick={() => {
              onChange('')
              input.current?.focus()
            }}
            data-testid="search-clear"
          >
            <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
              <circle cx="10" cy="10" r="9" fill="currentColor" />
              <path d="m7 7 6 6m0-6-6 6" stroke="var(--prima-surface)" strokeWidth="1.8" strokeLinecap="round" />
            </svg>
          </button>
        )}
      </label>
      <button type="submit" className={`${styles.go} prima-hit`} data-testid="search-submit">
        {t('search.submit')}
      </button>
    </form>
  )
}
