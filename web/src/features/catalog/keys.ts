// The catalog's query keys, in one place: pages that refresh or reset a
// family of queries name it here instead of repeating an array literal that
// could drift from the one the query was stored under.
import type { ModuleType } from './types'

export const catalogKeys = {
  all: ['catalog'] as const,
  modulesAll: () => [...catalogKeys.all, 'modules'] as const,
  modules: (moduleType: ModuleType) => [...catalogKeys.modulesAll(), moduleType] as const,
  announcements: () => [...catalogKeys.all, 'announce'] as const,
  sectionsAll: () => [...catalogKeys.all, 'sections'] as const,
  sections: (moduleID: number) => [...catalogKeys.sectionsAll(), moduleID] as const,
  videosAll: () => [...catalogKeys.all, 'videos'] as const,
  top: (moduleID: number) => [...catalogKeys.all, 'top', moduleID] as const,
  videos: (subModuleID: number, sortType: number) => [...catalogKeys.videosAll(), subModuleID, sortType] as const,
  source: (p: { subModuleID?: number; moduleID?: number; sortType: number; playTimeType: number; newsType: number }) =>
    [...catalogKeys.videosAll(), 'source', p.subModuleID ?? 0, p.moduleID ?? 0, p.sortType, p.playTimeType, p.newsType] as const,
}
