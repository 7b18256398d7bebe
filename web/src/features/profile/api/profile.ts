// GET /api/app/mine/info (the caller, or ?uid= anyone), POST
// /api/app/mine/info (edit the caller's profile) and GET
// /api/app/mine/getUserExtension (counts).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '@/lib/api'
import { getExtension, peopleKeys } from '@/lib/people'
import type { UserInfo } from '@/lib/user'
import { useUserStore } from '@/stores/user'
import { profileKeys } from '@/features/profile/keys'
import type { Profile, ProfileEdit } from '@/features/profile/types'

// MyInfo is the caller's UserInfo with the people fields.
export type MyInfo = UserInfo & { gender?: 0 | 1 | 2; bio?: string }

export function useMyInfo(token: string | null) {
  const setUser = useUserStore((s) => s.setUser)
  return useQuery({
    queryKey: profileKeys.me(token),
    queryFn: async () => {
      const u = await api.get<MyInfo>('/api/app/mine/info')
      setUser(u)
      return u
    },
    enabled: token != null,
  })
}

export function useProfile(uid: number, token: string | null) {
  return useQuery({
    queryKey: profileKeys.user(uid, token),
    queryFn: () => api.get<Profile>('/api/app/mine/info', { uid }),
    enabled: token != null && uid > 0,
  })
}

// useExtension is uid's counts, or the caller's when uid is null.
export function useExtension(uid: number | null, token: string | null) {
  return useQuery({
    queryKey: peopleKeys.ext(uid, token),
    queryFn: () => getExtension(uid),
    enabled: token != null && (uid == null || uid > 0),
  })
}

export function useUpdateProfile() {
  const qc = useQueryClient()
  const setUser = useUserStore((s) => s.setUser)
  return useMutation({
    mutationFn: (edit: ProfileEdit) => api.post<MyInfo>('/api/app/mine/info', edit, { toast: true }),
    onSuccess: (u) => {
      setUser(u)
      void qc.invalidateQueries({ queryKey: profileKeys.all })
      // The account feature's own info query (Mine) is stale now too; its
      // key is that feature's, so it is matched by its root, not imported.
      void qc.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'mine' })
    },
  })
}
