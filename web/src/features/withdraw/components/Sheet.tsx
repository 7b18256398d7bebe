// A bottom sheet dialog (the withdraw password check, delete and exchange
// confirmations): focus moves in, Escape and the backdrop close it unless
// busy.
import { useEffect, useId, useRef, type ReactNode } from 'react'
import styles from './ui.module.css'

export function Sheet({
  title,
  onClose,
  busy,
  children,
  testid,
}: {
  title: string
  onClose: () => void
  busy?: boolean
  children: ReactNode
  testid: string
}) {
  const panel = useRef<HTMLDivElement>(null)
  const id = useId()
  const close = useRef(onClose)
  close.current = onClose
  const busyRef = useRef(busy)
  busyRef.current = busy

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    panel.current?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !busyRef.current) close.current()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      before?.focus?.()
    }
  }, [])

  return (
    <div className={styles.backdrop} onClick={() => !busy && onClose()} data-testid={testid}>
      <div
        ref={panel}
        className={styles.sheet}
        role="dialog"
        aria-modal="true"
        aria-labelledby={id}
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id={id} className={styles.sheetTitle}>
          {title}
        </h2>
        {children}
      </div>
    </div>
  )
}
