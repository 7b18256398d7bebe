// A post among search results is drawn by the community's own card. The
// search feature cannot import the community feature (imports go one way),
// so the app puts a renderer here and the search pages read it.
import { createContext, type ComponentType, type ReactNode } from 'react'

export interface SearchPostProps {
  post: unknown // the community's Post, as GET /api/app/search hands it out
  // highlight draws a text with the search's matches marked.
  highlight: (text: string) => ReactNode
}

export const SearchPostSlot = createContext<ComponentType<SearchPostProps> | null>(null)
