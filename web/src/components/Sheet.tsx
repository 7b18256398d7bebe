// A bottom sheet: a modal dialog that rises from the bottom edge, for a
// confirmation or a short choice. Focus moves in, Escape and the backdrop
// close it, and it pads itself above the home indicator.
import { useEffect, useRef, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import styles from './Sheet.module.css'

export function Sheet({
  title,
  onClose,
  children,
  testid,
}: {
  title: ReactNode
  onClose: () => void
  children: ReactNode
  testid?: string
}) {
  const panel = useRef<HTMLDivElement>(null)
  const close = useRef(onClose)
  close.current = onClose

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    panel.current?.focus()
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close.current()
    }
    window.addEventListener('keydown', onKey)
    return () => {
      window.removeEventListener('keydown', onKey)
      before?.focus?.()
    }
  }, [])

  // On <body>: a sheet opened from inside a player overlay must not be
  // clipped or positioned by it, nor let its taps reach the player.
  return createPortal(
    <div className={styles.backdrop} onClick={() => close.current()} data-testid={testid}>
      <div
        ref={panel}
        className={styles.panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby="sheet-title"
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
      >
        <h2 id="sheet-title" className={styles.title}>
          {title}
        </h2>
        {children}
      </div>
    </div>,
    document.body,
  )
}
