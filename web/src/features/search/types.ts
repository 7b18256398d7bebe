// The search calls' shapes (docs/api.md, *Search*; internal/searchapi).
import type { Video } from '@/lib/video'
import type { Gallery } from '@/lib/gallery'

export type SearchKind = 'video' | 'short' | 'gallery' | 'post' | 'topic' | 'user'

// A [start, end) range of characters (code points) of the title.
export type Mark = [number, number]

export interface SearchTopic {
  id: number
  name: string
  description: string
  cover: string
  postCount: number
  followCount: number
  followed: boolean
}

export interface SearchPerson {
  uid: number
  name: string
  portrait: string
  vipLevel: number
  bio: string
  isFollow: boolean
}

// Result: one hit with the card of its kind. post is the community's Post
// (the app hands it to the community's card; this feature does not read it).
export interface Result {
  kind: SearchKind
  id: number
  title: string
  marks: Mark[] | null
  video?: Video
  gallery?: Gallery
  post?: unknown
  topic?: SearchTopic
  user?: SearchPerson
}

export interface Section {
  kind: SearchKind
  total: number
  list: Result[]
}

export interface Overview {
  q: string
  sections: Section[]
}

export interface HotWord {
  word: string
  pinned: boolean
  count: number
}
