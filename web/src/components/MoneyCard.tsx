// The figures card of the earnings pages: a few sums of money side by side
// on the accent gradient (withdrawable, pending, settled...), an optional
// badge beside the title and a row of links or notes at the foot. Sums are
// integer cents shown as yuan (lib/wallet).
import type { ReactNode } from 'react'
import { yuan } from '@/lib/wallet'
import styles from './Earn.module.css'

export interface Figure {
  label: string
  cents: number
  testid: string
  // big: the figure that matters most, drawn larger (withdrawable).
  big?: boolean
}

export function MoneyCard({ title, badge, figures, foot, testid }: { title: ReactNode; badge?: ReactNode; figures: Figure[]; foot?: ReactNode; testid?: string }) {
  return (
    <section className={styles.card} data-testid={testid}>
      <div className={styles.cardHead}>
        <h2 className={styles.cardTitle}>{title}</h2>
        {badge}
      </div>
      <dl className={styles.figures} style={{ gridTemplateColumns: `repeat(${figures.length}, minmax(0, 1fr))` }}>
        {figures.map((f) => (
          <div key={f.testid} className={styles.figure}>
            <dt>{f.label}</dt>
            <dd className={f.big ? styles.big : undefined} data-testid={f.testid} data-cents={f.cents}>
              <span className={styles.currency}>¥</span>
              {yuan(f.cents)}
            </dd>
          </div>
        ))}
      </dl>
      {foot && <div className={styles.cardFoot}>{foot}</div>}
    </section>
  )
}
