// searchresult and searchmore, composed here because parts of them belong
// to other features: a post among the results is drawn by the community's
// own card (components/SearchPostSlot), and the module filter offers the
// modules that catalog, shortvideo, gallery and community list, read
// through their own queries (components/SearchModulesSlot).
import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { SearchPostSlot, type SearchPostProps } from '@/components/SearchPostSlot'
import { SearchModulesSlot, type SearchModuleGroup, type SearchModuleKind, type SearchModules } from '@/components/SearchModulesSlot'
import { navOpen, useConfigStore } from '@/stores/config'
import { PostCard } from '@/features/community/components/PostCard'
import { communityModulesQueryOptions } from '@/features/community/api/feed'
import type { Post } from '@/features/community/types'
import { modulesQueryOptions } from '@/features/catalog/api/get-modules'
import { shortModulesQueryOptions } from '@/features/shortvideo/api/get-short-modules'
import { imageModulesQueryOptions } from '@/features/gallery/api/galleries'

export function SearchPost({ post, highlight }: SearchPostProps) {
  const p = post as Post
  // A post's index title is its title, or else its text's first line,
  // which is where its summary starts.
  return <PostCard post={p} titleNode={p.title ? highlight(p.title) : undefined} summaryNode={p.title ? undefined : highlight(p.summary)} />
}

interface Listed {
  moduleID: number
  moduleName: string
  subModules?: { id: number; moduleName: string }[] | null
}

function groups(list: Listed[] | undefined, selectable: boolean): SearchModuleGroup[] {
  return (list ?? []).map((m) => ({
    id: m.moduleID,
    name: m.moduleName,
    selectable,
    subs: (m.subModules ?? []).map((s) => ({ id: s.id, name: s.moduleName })),
  }))
}

// useSearchModules: the modules of a kind. Long videos are home's modules,
// the dark module's while its tab is shown (NAVOPEN), and the community
// module's (it holds videos too: the seed's 社区 has fifty, and search files
// them as long videos); shorts the short-video modules; galleries the images
// module's; posts the community's sub-modules (a post is filed under a
// sub-module only).
export function useSearchModules(kind: SearchModuleKind | null): SearchModules {
  const dark = useConfigStore((s) => navOpen(s.source))
  const home = useQuery({ ...modulesQueryOptions(0), enabled: kind === 'video' })
  const darkMods = useQuery({ ...modulesQueryOptions(2), enabled: kind === 'video' && dark })
  const commVideos = useQuery({ ...modulesQueryOptions(1), enabled: kind === 'video' })
  const shorts = useQuery({ ...shortModulesQueryOptions(), enabled: kind === 'short' })
  const images = useQuery({ ...imageModulesQueryOptions(), enabled: kind === 'gallery' })
  const community = useQuery({ ...communityModulesQueryOptions(), enabled: kind === 'post' })
  const byKind = {
    video: {
      used: dark ? [home, darkMods, commVideos] : [home, commVideos],
      list: [...groups(home.data, true), ...(dark ? groups(darkMods.data, true) : []), ...groups(commVideos.data, true)],
    },
    short: { used: [shorts], list: groups(shorts.data, true) },
    gallery: { used: [images], list: groups(images.data, true) },
    post: { used: [community], list: groups(community.data, false) },
  }
  const { used, list } = kind ? byKind[kind] : { used: [], list: [] }
  const failed = used.find((q) => q.isError)
  return {
    groups: list,
    isPending: used.some((q) => q.isPending),
    isError: !!failed,
    error: failed?.error,
    refetch: () => used.forEach((q) => void q.refetch()),
  }
}

export function WithSearchCards({ children }: { children: ReactNode }) {
  return (
    <SearchPostSlot.Provider value={SearchPost}>
      <SearchModulesSlot.Provider value={useSearchModules}>{children}</SearchModulesSlot.Provider>
    </SearchPostSlot.Provider>
  )
}
