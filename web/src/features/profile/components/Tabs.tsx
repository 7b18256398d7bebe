// A two- or more-way segmented switch between the panels of a page.
import styles from './ui.module.css'

export function Tabs<K extends string>({ tabs, value, onChange }: { tabs: { key: K; label: string }[]; value: K; onChange: (k: K) => void }) {
  return (
    <div className={`${styles.tabs} prima-chrome`} role="tablist">
      {tabs.map((x) => (
        <button
          key={x.key}
          type="button"
          role="tab"
          aria-selected={x.key === value}
          className={`${styles.tab} ${x.key === value ? styles.tabOn : ''}`}
          onClick={() => onChange(x.key)}
          data-testid={`tab-${x.key}`}
        >
          {x.label}
        </button>
      ))}
    </div>
  )
}
