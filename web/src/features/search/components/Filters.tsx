// The filters of a kind's results: a 筛选 button beside the sort chips
// (marked while a filter is on), a line under them naming what is on with
// 清除筛选, and the sheet that picks the access level and the module. The
// sheet edits a draft; 确定 applies it, the backdrop or Escape drops it.
import { useContext, useState } from 'react'
import { t, type MessageKey } from '@/i18n'
import { Sheet } from '@/components/Sheet'
import { SearchModulesSlot, type SearchModuleKind, type SearchModules } from '@/components/SearchModulesSlot'
import { ACCESS, NO_FILTER, filterCount, isFiltered, type Access, type Filter } from '@/features/search/filters'
import styles from './search.module.css'

const ACCESS_LABEL: Record<Access, MessageKey> = {
  [-1]: 'search.filter.any',
  0: 'search.filter.free',
  1: 'search.filter.vip',
  2: 'search.filter.svip',
}

const NO_MODULES: SearchModules = { groups: [], isPending: false, isError: false, error: null, refetch: () => {} }
const useNoModules = () => NO_MODULES

// useModules reads the kind's modules through the app's slot (none without it).
export function useModules(kind: SearchModuleKind | null): SearchModules {
  const useSlot = useContext(SearchModulesSlot) ?? useNoModules
  return useSlot(kind)
}

// moduleName is the name of a module or sub-module id among the groups.
export function moduleName(m: SearchModules, id: number): string | null {
  for (const g of m.groups) {
    if (g.id === id) return g.name
    const s = g.subs.find((x) => x.id === id)
    if (s) return s.name
  }
  return null
}

export function FilterButton({ filter, onOpen }: { filter: Filter; onOpen: () => void }) {
  const n = filterCount(filter)
  return (
    <button
      type="button"
      className={`${styles.filterBtn} ${n > 0 ? styles.filterOn : ''}`}
      onClick={onOpen}
      aria-haspopup="dialog"
      data-testid="search-filter-open"
      data-active={n > 0}
    >
      <svg viewBox="0 0 20 20" width="14" height="14" aria-hidden="true">
        <path d="M3 4h14l-5.5 6.5V16l-3 1.5v-7z" fill={n > 0 ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.6" strokeLinejoin="round" />
      </svg>
      {t('search.filter.open')}
      {n > 0 && (
        <>
          <span className={styles.filterCount} aria-hidden="true">
            {n}
          </span>
          <span className="prima-sr-only">{t('search.filter.onN', { n })}</span>
        </>
      )}
    </button>
  )
}

// FilterSummary: what is on, and 清除筛选.
export function FilterSummary({ filter, modules, onClear }: { filter: Filter; modules: SearchModules; onClear: () => void }) {
  if (!isFiltered(filter)) return null
  return (
    <div className={styles.filterLine} data-testid="search-filter-summary">
      <span className={styles.pills}>
        {filter.vipLevel !== -1 && (
          <span className={styles.pill} data-testid="search-filter-pill">
            {t(ACCESS_LABEL[filter.vipLevel])}
          </span>
        )}
        {filter.moduleID !== 0 && (
          <span className={styles.pill} data-testid="search-filter-pill">
            {moduleName(modules, filter.moduleID) ?? t('search.filter.someModule')}
          </span>
        )}
      </span>
      <button type="button" className={`${styles.clearBtn} prima-hit`} onClick={onClear} data-testid="search-filter-clear">
        {t('search.filter.clear')}
      </button>
    </div>
  )
}

function Choice({ on, onClick, children, testid }: { on: boolean; onClick: () => void; children: string; testid: string }) {
  return (
    <button type="button" aria-pressed={on} className={`${styles.choice} ${on ? styles.choiceOn : ''}`} onClick={onClick} data-testid={testid}>
      {children}
    </button>
  )
}

export function FilterSheet({
  filter,
  modules,
  onApply,
  onClose,
}: {
  filter: Filter
  modules: SearchModules
  onApply: (f: Filter) => void
  onClose: () => void
}) {
  const [draft, setDraft] = useState<Filter>(filter)
  const set = (patch: Partial<Filter>) => setDraft((d) => ({ ...d, ...patch }))
  const groups = modules.groups.filter((g) => g.selectable || g.subs.length > 0)
  return (
    <Sheet title={t('search.filter.open')} onClose={onClose} testid="search-filter-sheet">
      <section className={styles.filterGroup} role="group" aria-labelledby="search-filter-access">
        <h3 id="search-filter-access" className={styles.filterHead}>
          {t('search.filter.access')}
        </h3>
        <div className={styles.choices}>
          {ACCESS.map((a) => (
            <Choice key={a} on={draft.vipLevel === a} onClick={() => set({ vipLevel: a })} testid={`search-filter-vip-${a === -1 ? 'any' : a}`}>
              {t(ACCESS_LABEL[a])}
            </Choice>
          ))}
        </div>
        <p className={styles.filterHint}>{t('search.filter.freeHint')}</p>
      </section>
      <section className={styles.filterGroup} role="group" aria-labelledby="search-filter-module">
        <h3 id="search-filter-module" className={styles.filterHead}>
          {t('search.filter.module')}
        </h3>
        <div className={styles.choices}>
          <Choice on={draft.moduleID === 0} onClick={() => set({ moduleID: 0 })} testid="search-filter-module-0">
            {t('search.filter.allModules')}
          </Choice>
        </div>
        {modules.isPending && groups.length === 0 ? (
          <p className={styles.filterHint}>{t('state.loading')}</p>
        ) : modules.isError && groups.length === 0 ? (
          <p className={styles.filterHint}>
            {t('search.filter.modulesFailed')}{' '}
            <button type="button" className={`${styles.linkBtn} prima-hit`} onClick={modules.refetch}>
              {t('state.retry')}
            </button>
          </p>
        ) : groups.length === 0 ? (
          <p className={styles.filterHint}>{t('search.filter.noModules')}</p>
        ) : (
          groups.map((g) => (
            <div key={g.id} className={styles.moduleGroup} data-testid="search-filter-group">
              <p className={styles.moduleName}>{g.name}</p>
              <div className={styles.choices}>
                {g.selectable && (
                  <Choice on={draft.moduleID === g.id} onClick={() => set({ moduleID: g.id })} testid={`search-filter-module-${g.id}`}>
                    {t('search.filter.wholeModule', { name: g.name })}
                  </Choice>
                )}
                {g.subs.map((s) => (
                  <Choice key={s.id} on={draft.moduleID === s.id} onClick={() => set({ moduleID: s.id })} testid={`search-filter-module-${s.id}`}>
                    {s.name}
                  </Choice>
                ))}
              </div>
            </div>
          ))
        )}
      </section>
      <div className={styles.sheetActions}>
        <button type="button" className={styles.sheetReset} onClick={() => setDraft(NO_FILTER)} data-testid="search-filter-reset">
          {t('search.filter.reset')}
        </button>
        <button type="button" className={styles.sheetApply} onClick={() => onApply(draft)} data-testid="search-filter-apply">
          {t('search.filter.apply')}
        </button>
      </div>
    </Sheet>
  )
}
