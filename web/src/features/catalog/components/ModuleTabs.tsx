// The home screen's tab row: a horizontally scrolling row of modules and
// sub-modules, the current one bold with an indicator, kept in view as the
// selection moves.
import { useRef } from 'react'
import { useSelectedInView } from '@/components/useSelectedInView'
import type { HomeTab } from '@/features/catalog/tabs'
import styles from './ModuleTabs.module.css'

interface Props {
  tabs: HomeTab[]
  selected: string
  onSelect: (tab: HomeTab) => void
}

export function ModuleTabs({ tabs, selected, onSelect }: Props) {
  const row = useRef<HTMLDivElement>(null)

  useSelectedInView(row, selected)

  return (
    <div className={styles.row} ref={row} role="tablist">
      {tabs.map((tab) => {
        const active = tab.key === selected
        return (
          <button
            key={tab.key}
            type="button"
            role="tab"
            aria-selected={active}
            className={`${styles.tab} ${active ? styles.active : ''}`}
            onClick={() => onSelect(tab)}
            data-testid="home-module-tab"
            data-tab={tab.key}
          >
            {tab.name}
          </button>
        )
      })}
    </div>
  )
}

export function ModuleTabsSkeleton() {
  return (
    <div className={styles.row} aria-hidden="true">
      {[44, 36, 52, 40, 36].map((w, i) => (
        <span key={i} className={`${styles.skTab} prima-skeleton`} style={{ width: w }} />
      ))}
    </div>
  )
}
