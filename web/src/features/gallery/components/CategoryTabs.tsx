// The galleryCategory tab row: one tab per images (sub-)module, scrolling
// sideways, the current one bold with an indicator and kept in view.
import { useEffect, useRef } from 'react'
import { t } from '@/i18n'
import type { CategoryTab } from '@/features/gallery/tabs'
import styles from './CategoryTabs.module.css'

export function CategoryTabs({ tabs, selected, onSelect }: { tabs: CategoryTab[]; selected: string; onSelect: (t: CategoryTab) => void }) {
  const row = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const el = row.current
    const tab = el?.querySelector<HTMLElement>('[aria-selected="true"]')
    if (!el || !tab) return
    el.scrollTo({ left: Math.max(0, tab.offsetLeft - (el.clientWidth - tab.offsetWidth) / 2), behavior: 'smooth' })
  }, [selected])
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
