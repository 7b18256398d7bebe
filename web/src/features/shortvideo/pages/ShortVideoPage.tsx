// shortvideo (/shortvideo): the short-video tab. The feed lists the first
// short-video module (moduleType 4) as a whole ("推荐"); the chips above
// switch to one of its sub-modules. The chosen chip is remembered per
// screen like home's tab.
import { t } from '@/i18n'
import { useAppStore } from '@/stores/app'
import { useShortModules } from '@/features/shortvideo/api/get-short-modules'
import { ShortFeed } from '@/features/shortvideo/components/ShortFeed'
import type { FeedSource } from '@/features/shortvideo/types'
import styles from '@/features/shortvideo/components/ShortFeed.module.css'

export default function ShortVideoPage() {
  const modules = useShortModules()
  const chosen = useAppStore((s) => s.tabs.shortvideo)
  const setTab = useAppStore((s) => s.setTab)
  const mod = modules.data?.[0]
  const sub = mod?.subModules.find((s) => s.id === chosen)
  const source: FeedSource | null = !mod ? null : sub ? { subModuleID: sub.id } : { moduleID: mod.moduleID }

  const chips = mod && (
    <div className={styles.chips} role="tablist" aria-label={t('short.sources')} data-no-swipe>
      {[{ id: 0, moduleName: t('short.all') }, ...mod.subModules].map((c) => {
        const active = (sub?.id ?? 0) === c.id
        return (
          <button
            key={c.id}
            type="button"
            role="tab"
            aria-selected={active}
            className={`${styles.chip} ${active ? styles.chipActive : ''}`}
            onClick={() => setTab('shortvideo', c.id)}
            data-testid="short-chip"
          >
            {c.moduleName}
          </button>
        )
      })}
    </div>
  )

  return (
    <main data-testid="shortvideo-page">
      <h1 className="prima-sr-only">{t('tab.shortvideo')}</h1>
      <ShortFeed
        key={source ? JSON.stringify(source) : 'none'}
        source={source}
        sourceState={{
          pending: modules.isPending,
          error: modules.isError ? modules.error : null,
          retry: () => void modules.refetch(),
        }}
        top={chips}
        fill="tab"
      />
    </main>
  )
}
