// The 帖子 tab of a user's page lists their community posts. The profile
// feature cannot import the community feature (imports go one way), so the
// app puts the community's list here and the profile reads it.
import { createContext, type ComponentType } from 'react'

export interface UserPostsProps {
  uid: number
  // mine: the caller's own page (their pending and rejected posts too).
  mine: boolean
}

export const UserPostsSlot = createContext<ComponentType<UserPostsProps> | null>(null)
