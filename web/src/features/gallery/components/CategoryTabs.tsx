// The galleryCategory tab row: one tab per images (sub-)module, scrolling
// sideways, the current one bold with an indicator and kept in view.
import { useRef } from 'react'
import { useSelectedInView } from '@/components/useSelectedInView'
import { t } from '@/i18n'
import type { CategoryTab } from '@/features/gallery/tabs'
import styles from './CategoryTabs.module.css'

export function CategoryTabs({ tabs, selected, onSelect }: { tabs: CategoryTab[]; selected: string; onSelect: (t: CategoryTab) => void }) {
  const row = useRef<HTMLDivElement>(null)
  useSelectedInView(row, selected)
  return (
    <div className={styles.row} ref={row} role="tablist" aria-label={t('gallery.categories')}>
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
            data-testid="gallery-tab"
            data-tab={tab.key}
          >
            {tab.name}
          </button>
        )
      })}
    </div>
  )
}

export function CategoryTabsSkeleton() {
  return (
    <div className={styles.row} aria-hidden="true">
      {[44, 36, 52, 40].map((w, i) => (
        <span key={i} className={`${styles.skTab} prima-skeleton`} style={{ width: w }} />
      ))}
    </div>
  )
}
