// GET /api/app/modules/list?moduleType=N: the modules of one screen with
// their sub-modules, in display order.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Module, ModuleType } from '@/features/catalog/types'
import { catalogKeys } from '@/features/catalog/keys'

export function getModules(moduleType: ModuleType): Promise<Module[]> {
  return api.get<Module[]>('/api/app/modules/list', { moduleType }, { public: true })
}

export function modulesQueryOptions(moduleType: ModuleType) {
  return queryOptions({
    queryKey: catalogKeys.modules(moduleType),
    queryFn: () => getModules(moduleType),
    staleTime: 5 * 60_000,
  })
}

export function useModules(moduleType: ModuleType) {
  return useQuery(modulesQueryOptions(moduleType))
}
