// The post detail's shapes (docs/api.md, *Post detail, likes and comments*).
import type { Author, Post } from '@/features/community/types'

export interface PostAccess {
  allowed: boolean
  // free | vip | svip | free_window | bought | author | login | need_vip | need_svip | need_coins
  reason: string
  unlock: { needVipLevel: number; coins: number }
}

export interface PostDetail extends Post {
  text: string // picture/video posts' full text; a locked article's first 200 characters
  html: string // an article's sanitised body ('' when locked)
  access: PostAccess
  playback: { master?: string; preview?: string } | null
  following: boolean
  mine: boolean
}

export type CommentState = 'published' | 'deleted' | 'removed'

export interface PostComment {
  id: number
  postId: number
  parentId: number
  author: Author
  replyTo?: Author
  text: string // '' unless published
  state: CommentState
  replyCount: number
  replies: PostComment[]
  mine: boolean
  createdAt: number // Unix seconds
}

// Whom the composer answers: nobody (a comment on the post), or a comment
// (reply to its author) or a reply (reply to its author, under its parent).
export interface ReplyTarget {
  parentId: number
  replyToUid: number
  name: string
}
