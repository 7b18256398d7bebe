// Pull to refresh (antd-mobile's PullToRefresh). Its code, with the
// gesture and animation libraries under it, is about 25 kB gzip that the
// first paint does not need, so it loads in its own chunks as soon as the
// home page runs and wraps the content once it has arrived (normally while
// the first data is still loading).
import { lazy, Suspense, type ReactNode } from 'react'
import { t } from '@/i18n'

type Module = typeof import('antd-mobile/es/components/pull-to-refresh')
let loading: Promise<Module> | null = null
const load = () => (loading ??= import('antd-mobile/es/components/pull-to-refresh'))

export function preloadPullRefresh(): void {
  load().catch(() => {
    loading = null // a later render tries again
  })
}

const PullToRefresh = lazy(load)

export function PullRefresh({ onRefresh, children }: { onRefresh: () => Promise<unknown>; children: ReactNode }) {
  return (
    <Suspense fallback={children}>
      <PullToRefresh
        onRefresh={onRefresh}
        pullingText={t('ptr.pulling')}
        canReleaseText={t('ptr.release')}
        refreshingText={t('ptr.refreshing')}
        completeText={t('ptr.complete')}
      >
        {children}
      </PullToRefresh>
    </Suspense>
  )
}
