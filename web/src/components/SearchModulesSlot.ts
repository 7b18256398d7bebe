// The modules a search result page offers as a filter belong to other
// features (home's and the dark module's in catalog, the short videos',
// the images module's, the community's), which the search feature may not
// import. The app puts a hook here that reads them through those features'
// own queries (so their cache is shared), and the search pages call it.
import { createContext } from 'react'

export type SearchModuleKind = 'video' | 'short' | 'gallery' | 'post'

export interface SearchModuleGroup {
  id: number
  name: string
  // selectable: the module itself is a choice (its items are filed under
  // it). Posts are filed under a community sub-module only.
  selectable: boolean
  subs: { id: number; name: string }[]
}

export interface SearchModules {
  groups: SearchModuleGroup[]
  isPending: boolean
  isError: boolean
  error: unknown
  refetch: () => void
}

// kind null: a kind without a module filter (nothing is fetched).
export type UseSearchModules = (kind: SearchModuleKind | null) => SearchModules

export const SearchModulesSlot = createContext<UseSearchModules | null>(null)
