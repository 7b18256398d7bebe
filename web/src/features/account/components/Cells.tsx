// iOS inset grouped list: a rounded group of rows, each with an optional
// glyph, a title, a value or control, and a chevron when it leads somewhere.
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { ChevronRightIcon } from '@/components/icons'
import styles from './Cells.module.css'

export function CellGroup({ title, children }: { title?: ReactNode; children: ReactNode }) {
  return (
    <section className={styles.group}>
      {title && <h2 className={styles.groupTitle}>{title}</h2>}
      <div className={styles.cells}>{children}</div>
    </section>
  )
}

interface CellProps {
  icon?: ReactNode
  title: ReactNode
  value?: ReactNode
  extra?: ReactNode // a control (switch, segmented) in place of value + chevron
  to?: string
  onClick?: () => void
  danger?: boolean
  testid?: string
}

export function Cell({ icon, title, value, extra, to, onClick, danger, testid }: CellProps) {
  const body = (
    <>
      {icon}
      <span className={styles.main}>
        <span className={`${styles.title} ${danger ? styles.danger : ''}`}>{title}</span>
        {value != null && <span className={styles.value}>{value}</span>}
        {extra}
        {(to || (onClick && !danger)) && <ChevronRightIcon className={styles.chevron} />}
      </span>
    </>
  )
  if (to) {
    return (
      <Link to={to} className={`${styles.cell} ${styles.tappable}`} data-testid={testid}>
        {body}
      </Link>
    )
  }
  if (onClick) {
    return (
      <button type="button" className={`${styles.cell} ${styles.tappable} ${danger ? styles.center : ''}`} onClick={onClick} data-testid={testid}>
        {body}
      </button>
    )
  }
  return (
    <div className={styles.cell} data-testid={testid}>
      {body}
    </div>
  )
}
