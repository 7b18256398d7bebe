// The gallery calls: the images module's categories (modules/list
// ?moduleType=3), a category's galleries (gallery/list), the VIP galleries
// (gallery/vip), one gallery (gallery/info) and the favourite toggle
// (gallery/collect, optimistic with rollback).
import { infiniteQueryOptions, queryOptions, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '@/lib/api'
import { nextPage, type Page } from '@/lib/page'
import { galleryKeys } from '@/features/gallery/keys'
import { type Gallery, type GalleryDetail, type ImageModule } from '@/features/gallery/types'

export const PAGE_SIZE = 20
const IMAGES_MODULE_TYPE = 3

export function getImageModules(): Promise<ImageModule[]> {
  return api.get<ImageModule[]>('/api/app/modules/list', { moduleType: IMAGES_MODULE_TYPE })
}

export function imageModulesQueryOptions() {
  return queryOptions({ queryKey: galleryKeys.modules(), queryFn: getImageModules, staleTime: 5 * 60_000 })
}

export function useImageModules() {
  return useQuery(imageModulesQueryOptions())
}

export type ListScope = { moduleID?: number; subModuleID?: number }

export function getGalleries(scope: ListScope, pageNumber: number): Promise<Page<Gallery>> {
  const where = scope.subModuleID ? { subModuleID: scope.subModuleID } : { moduleID: scope.moduleID }
  return api.get<Page<Gallery>>('/api/app/gallery/list', { ...where, pageNumber, pageSize: PAGE_SIZE })
}

export function useGalleries(scope: ListScope) {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: galleryKeys.list(scope),
      queryFn: ({ pageParam }) => getGalleries(scope, pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
      enabled: !!(scope.moduleID || scope.subModuleID),
    }),
  )
}

export function getVipGalleries(pageNumber: number): Promise<Page<Gallery>> {
  return api.get<Page<Gallery>>('/api/app/gallery/vip', { pageNumber, pageSize: PAGE_SIZE })
}

export function useVipGalleries() {
  return useInfiniteQuery(
    infiniteQueryOptions({
      queryKey: galleryKeys.vip(),
      queryFn: ({ pageParam }) => getVipGalleries(pageParam),
      initialPageParam: 1,
      getNextPageParam: nextPage,
    }),
  )
}

export function getGallery(id: number): Promise<GalleryDetail> {
  return api.get<GalleryDetail>('/api/app/gallery/info', { id })
}

// isNotFound: the gallery does not exist or is unpublished; retrying cannot help.
export function isNotFound(err: unknown): boolean {
  return err instanceof ApiError && err.status === 404
}

export function useGallery(id: number, token: string | null) {
  return useQuery(
    queryOptions({
      queryKey: galleryKeys.detail(id, token),
      queryFn: () => getGallery(id),
      enabled: Number.isSafeInteger(id) && id > 0,
      // The picture URLs are signed for about 2 h; a fresh detail signs anew.
      staleTime: 60_000,
      retry: (n, err) => !isNotFound(err) && n < 2,
    }),
  )
}

export function collectGallery(id: number, isCollect: boolean) {
  return api.post<{ id: number; isCollect: boolean }>('/api/app/gallery/collect', { id, isCollect }, { toast: true })
}

// useCollectGallery flips isCollect in the cached detail at once, puts it
// back when the server refuses, and takes the server's answer as the truth.
export function useCollectGallery(id: number, token: string | null) {
  const qc = useQueryClient()
  const key = galleryKeys.detail(id, token)
  return useMutation({
    mutationFn: (on: boolean) => collectGallery(id, on),
    onMutate: async (on: boolean) => {
      await qc.cancelQueries({ queryKey: key })
      const before = qc.getQueryData<GalleryDetail>(key)
      if (before) qc.setQueryData<GalleryDetail>(key, { ...before, isCollect: on })
      return { before }
    },
    onError: (_e, _on, ctx) => {
      if (ctx?.before) qc.setQueryData(key, ctx.before)
    },
    onSuccess: (r) => {
      qc.setQueryData<GalleryDetail>(key, (d) => (d ? { ...d, isCollect: r.isCollect } : d))
    },
  })
}
