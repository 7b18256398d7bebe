// The community's shapes as the server hands them out (internal/community
// post.go and docs/api.md, *Community*). Feeds, the post detail, publishing
// and the profile tabs all read posts in this one shape.

export type PostKind = 'picture' | 'video' | 'article'

// pending: waiting for review; rejected/removed carry a reason. Only the
// author (and operators) ever see a state other than published.
export type PostState = 'pending' | 'published' | 'rejected' | 'removed' | 'deleted'

export interface Author {
  uid: number
  name: string
  portrait: string
  vipLevel: number
}

// Signed, expiring URLs; placeholder is a BlurHash ('' when unknown).
export interface PostPicture {
  id: number
  url: string
  thumb: string
  urlWebp?: string
  thumbWebp?: string
  width: number
  height: number
  placeholder: string
}

export interface TopicRef {
  id: number
  name: string
}

export interface PostVideo {
  assetId: number
  state: 'processing' | 'ready' | 'failed' | string
  durationMs: number
  poster?: string
  width: number
  height: number
}

export interface Post {
  id: number
  kind: PostKind
  title: string
  summary: string // the first 140 characters of the text (an article's as plain text)
  pictures: PostPicture[] // a locked paid post: the preview picture only
  pictureCount: number // all the post's pictures
  video?: PostVideo
  author: Author
  topic?: TopicRef
  moduleID: number
  vipLevel: number // 0 free, 1 VIP, 2 super VIP
  coins: number // > 0: a paid post with this price
  state?: PostState // the author's own posts only
  reason?: string // why it was rejected or removed
  likeCount: number
  commentCount: number
  viewCount: number
  liked: boolean
  pinned: boolean
  featured: boolean
  createdAt: number // Unix seconds
  publishedAt: number // 0 until published
}

export interface Topic {
  id: number
  name: string
  description: string
  cover: string
  postCount: number
  followCount: number
  followed: boolean
}
