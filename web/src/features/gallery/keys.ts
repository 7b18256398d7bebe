// The gallery feature's query keys (see catalog/keys.ts for why a factory).
// The detail carries isCollect and the caller's access, so it carries the
// token; the lists are the same for everyone.
export const galleryKeys = {
  all: ['gallery'] as const,
  modules: () => [...galleryKeys.all, 'modules'] as const,
  listAll: () => [...galleryKeys.all, 'list'] as const,
  list: (scope: { moduleID?: number; subModuleID?: number }) =>
    [...galleryKeys.listAll(), scope.moduleID ?? 0, scope.subModuleID ?? 0] as const,
  vip: () => [...galleryKeys.all, 'vip'] as const,
  detail: (id: number, token: string | null) => [...galleryKeys.all, 'detail', id, token] as const,
}
