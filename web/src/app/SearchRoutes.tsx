// searchresult and searchmore, composed here because a post among the
// results is drawn by the community's own card: the app hands that card to
// the search pages through components/SearchPostSlot.
import type { ReactNode } from 'react'
import { SearchPostSlot, type SearchPostProps } from '@/components/SearchPostSlot'
import { PostCard } from '@/features/community/components/PostCard'
import type { Post } from '@/features/community/types'

export function SearchPost({ post, highlight }: SearchPostProps) {
  const p = post as Post
  // A post's index title is its title, or else its text's first line,
  // which is where its summary starts.
  return <PostCard post={p} titleNode={p.title ? highlight(p.title) : undefined} summaryNode={p.title ? undefined : highlight(p.summary)} />
}

export function WithSearchCards({ children }: { children: ReactNode }) {
  return <SearchPostSlot.Provider value={SearchPost}>{children}</SearchPostSlot.Provider>
}
