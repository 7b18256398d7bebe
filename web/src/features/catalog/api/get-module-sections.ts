// GET /api/app/vid/moduleSection: a module's sections (one per sub-module),
// each with its first few videos, a page of sections at a time.
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { type Section } from '@/features/catalog/types'
import { catalogKeys } from '@/features/catalog/keys'

export const SECTIONS_PAGE_SIZE = 4
// Videos per section: two rows of the two-column grid.
export const SECTION_VIDEOS = 4

export function getModuleSections(moduleID: number, pageNumber: number): Promise<Page<Section>> {
  return api.get<Page<Section>>(
    '/api/app/vid/moduleSection',
    { moduleID, pageNumber, pageSize: SECTIONS_PAGE_SIZE, pSize: SECTION_VIDEOS },
    { public: true },
  )
}

export function moduleSectionsQueryOptions(moduleID: number) {
  return infiniteQueryOptions({
    queryKey: catalogKeys.sections(moduleID),
    queryFn: ({ pageParam }) => getModuleSections(moduleID, pageParam),
    initialPageParam: 1,
    getNextPageParam: nextPage,
    staleTime: 2 * 60_000,
  })
}

export function useModuleSections(moduleID: number) {
  return useInfiniteQuery(moduleSectionsQueryOptions(moduleID))
}
