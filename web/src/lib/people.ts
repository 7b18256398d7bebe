// A user's counts (GET /api/app/mine/getUserExtension): shared by the Mine
// page's counts row (src/components/FollowCounts) and the profile feature,
// so both read and refresh one cache entry.
import { api } from './api'

export interface Extension {
  uid: number
  followCount: number // users they follow
  fansCount: number // users following them
  likeCount: number // likes others gave to their videos
  postCount: number // 0 until community posts exist
}

export const peopleKeys = {
  all: ['people'] as const,
  // uid null: the caller's own counts.
  ext: (uid: number | null, token: string | null) => [...peopleKeys.all, 'ext', uid ?? 'me', token] as const,
}

export function getExtension(uid: number | null): Promise<Extension> {
  return api.get<Extension>('/api/app/mine/getUserExtension', uid == null ? undefined : { uid })
}
