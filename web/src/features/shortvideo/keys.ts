// This feature's query keys (see catalog/keys.ts for why a factory).
import type { FeedSource } from './types'

export const shortKeys = {
  all: ['shortvideo'] as const,
  modules: () => [...shortKeys.all, 'modules'] as const,
  feed: (src: FeedSource) => [...shortKeys.all, 'feed', 'moduleID' in src ? `m${src.moduleID}` : `s${src.subModuleID}`] as const,
  infoAll: () => [...shortKeys.all, 'info'] as const,
  info: (id: number) => [...shortKeys.infoAll(), id] as const,
}
