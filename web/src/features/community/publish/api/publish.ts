// GET /api/app/community/rules, POST /api/app/community/post, and the two
// lists the forms pick from: topics (GET /api/app/community/topics, the
// feeds' call: a failure only hides the picker) and the community module's
// sub-modules (GET /api/app/modules/list?moduleType=1, read here: a feature
// does not import the catalog's).
import { useMutation, useQuery } from '@tanstack/react-query'
import { api } from '@/lib/api'
import type { Page } from '@/lib/page'
import type { PostKind, PostState, Topic } from '@/features/community/types'
import { publishKeys } from '@/features/community/publish/keys'

export interface PublishRules {
  rules: string
  review: boolean
  limits: { titleMax: number; textMax: number; articleMax: number; pictures: number }
}

export function useRules() {
  return useQuery({
    queryKey: publishKeys.rules(),
    queryFn: () => api.get<PublishRules>('/api/app/community/rules'),
    staleTime: 60_000,
  })
}

export function useTopicChoices() {
  return useQuery({
    queryKey: publishKeys.topics(),
    queryFn: () => api.get<Page<Topic>>('/api/app/community/topics', { sort: 'hot', pageNumber: 1, pageSize: 50 }),
    staleTime: 5 * 60_000,
    retry: 1,
  })
}

interface CommunityModule {
  moduleID: number
  subModules: { id: number; moduleName: string }[]
}

export function useSubModules() {
  const q = useQuery({
    queryKey: publishKeys.modules(),
    queryFn: () => api.get<CommunityModule[]>('/api/app/modules/list', { moduleType: 1 }),
    staleTime: 5 * 60_000,
  })
  const subs = (q.data ?? []).flatMap((m) => m.subModules.map((s) => ({ id: s.id, name: s.moduleName })))
  return { subs, isError: q.isError }
}

export interface PostBody {
  kind: PostKind
  title?: string
  text?: string
  html?: string
  pictures?: number[]
  videoAssetID?: number
  topicID?: number
  moduleID?: number
  clientID: string
}

export interface CreatedPost {
  id: number
  state: PostState
}

export function useCreatePost() {
  return useMutation({
    mutationFn: (body: PostBody) => api.post<CreatedPost>('/api/app/community/post', body),
  })
}
