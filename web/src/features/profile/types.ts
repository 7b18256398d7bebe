// The shapes of the people calls (docs/api.md, *Profiles and follows*).
import type { Gender } from './rules'

// Profile is GET /api/app/mine/info?uid=N (PublicProfile with the people fields).
export interface Profile {
  uid: number
  name: string
  portrait: string
  vipLevel: 0 | 1 | 2
  createdAt: string
  isFollow: boolean
  gender: Gender
  bio: string
}

export type { Extension } from '@/lib/people'

export type ListKind = 'follow' | 'fans'

// Person is a row of GET /api/app/follow/list.
export interface Person {
  uid: number
  name: string
  portrait: string
  vipLevel: 0 | 1 | 2
  bio: string
  isFollow: boolean
  followedAt: string
}

export interface PersonPage {
  list: Person[]
  total: number
  pageNumber: number
  pageSize: number
  hasMore: boolean
  cursor: string // pass back as ?cursor= for the next page; "" at the end
}

export interface FollowResult {
  followUID: number
  isFollow: boolean
  fansCount: number
}

export interface ProfileEdit {
  name?: string
  portrait?: number // an uploaded picture's asset id
  gender?: Gender
  bio?: string
}
