// The feeds' query keys (lists of posts and topics). Lists that depend on
// who asks (liked, followed, the author's own states) carry the token.
export interface FeedSource {
  feed?: 'recommend' | 'new' | 'follow'
  moduleID?: number
  topicID?: number
  uid?: number
  sort?: 'new' | 'hot'
}

export const feedKeys = {
  all: ['community', 'feeds'] as const,
  postsAll: () => [...feedKeys.all, 'posts'] as const,
  posts: (src: FeedSource, token: string | null) =>
    [...feedKeys.postsAll(), src.feed ?? '', src.moduleID ?? 0, src.topicID ?? 0, src.uid ?? 0, src.sort ?? 'new', token] as const,
  topicsAll: () => [...feedKeys.all, 'topics'] as const,
  topics: (sort: 'hot' | 'new', token: string | null) => [...feedKeys.topicsAll(), 'list', sort, token] as const,
  topic: (id: number, token: string | null) => [...feedKeys.topicsAll(), 'one', id, token] as const,
  followed: (token: string | null) => [...feedKeys.topicsAll(), 'followed', token] as const,
  modules: () => [...feedKeys.all, 'modules'] as const,
}
