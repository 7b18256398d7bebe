// prefetchHome asks for the home page's first data (the announcements and
// the module list, then the first sections of the tab it will show) as soon
// as it is known the home page comes next, instead of after the page's code
// has downloaded and rendered: on a phone that is a round trip or two
// sooner for the first screen. The announcements go with the modules so the
// bar above the sections is there before them, not pushing them down.
// The page picks its tab the same way (tabs.ts, from the same stores) and
// finds these queries running or done; should the two ever disagree, the
// page simply asks for its own, as it always did.
import type { QueryClient } from '@tanstack/react-query'
import { useAppStore } from '@/stores/app'
import { useConfigStore } from '@/stores/config'
import { announcementsQueryOptions } from './api/get-announcements'
import { modulesQueryOptions } from './api/get-modules'
import { moduleSectionsQueryOptions } from './api/get-module-sections'
import { defaultTabIndex, homeTabs, pickTab } from './tabs'

// ready, when given, is waited for (its failure ignored) before the tab is
// picked: the start-up passes the remote configuration's request on a
// first visit, since the default tab comes from it.
export async function prefetchHome(client: QueryClient, ready?: Promise<unknown>): Promise<void> {
  void client.prefetchQuery(announcementsQueryOptions())
  let modules
  try {
    ;[modules] = await Promise.all([client.fetchQuery(modulesQueryOptions(0)), ready?.catch(() => undefined)])
  } catch {
    return // the page shows the error and its retry
  }
  const remembered = useAppStore.getState().tabs.home
  const defaultIndex = defaultTabIndex(useConfigStore.getState().source?.MODULESELECTINDEX)
  const tab = pickTab(homeTabs(modules), remembered, defaultIndex)
  // A sub-module tab's list depends on a sort the page keeps to itself.
  if (tab?.kind === 'module') await client.prefetchInfiniteQuery(moduleSectionsQueryOptions(tab.id))
}
