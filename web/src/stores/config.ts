// Client configuration fetched from the server: the remote configuration
// (/vid/source), the tag list and the delivery domains. Persisted so a
// returning visitor gets the platform-gate decision without waiting.
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import type { GateMode } from '@/lib/platform'
import { t } from '@/i18n'
import { mediaURL, type ChosenLines } from '@/lib/lines'
import { primaStorage } from './persist'

export interface SourceEntry {
  title: string
  url: string
  weight: number
}

export interface PreSale {
  type: 1 | 2 | 3 // 1 cover, 2 float, 3 popup
  status: 1 | 2 // 1 before sale, 2 after sale
  url: string
}

export interface Gate {
  mode: GateMode
  redirectURL: string
  publicURL: string
}

export interface Ad {
  id: number
  title: string
  image: string
  link: string
  position: string
}

// SourceConfig is /api/app/vid/source: lists keyed by the spec's names plus
// preSaleConfig, the platform gate and ads.
export interface SourceConfig {
  [key: string]: unknown
  APPNAME?: SourceEntry[]
  MODULESELECTINDEX?: SourceEntry[]
  NAVOPEN?: SourceEntry[]
  COMMUNITYLAYOUT?: SourceEntry[]
  CUST?: SourceEntry[]
  preSaleConfig?: PreSale[]
  gate: Gate
  ads?: Ad[]
}

export interface Tag {
  id: number
  name: string
  sort: number
}

export interface Domains {
  api: string[]
  image: string[]
  video: string[]
  fallback?: string[] // fallback sources (text files), when the operator set any
}

export interface ConfigState {
  source: SourceConfig | null
  tags: Tag[]
  domains: Domains | null
  // lines are the delivery lines this device chose (src/app/lines.ts):
  // persisted, so the next start loads media from the line that worked.
  lines: ChosenLines | null
  setSource: (source: SourceConfig) => void
  setTags: (tags: Tag[]) => void
  setDomains: (domains: Domains) => void
  setLines: (lines: ChosenLines) => void
}

type Persisted = Pick<ConfigState, 'source' | 'tags' | 'domains' | 'lines'>

// appNameOf is the operator's app name from the remote configuration
// (APPNAME's first entry with a title), or null when it sets none. It is
// the same in every language: it is a brand.
export function appNameOf(source: Pick<SourceConfig, 'APPNAME'> | null | undefined): string | null {
  const list = Array.isArray(source?.APPNAME) ? source.APPNAME : []
  for (const e of list) {
    const title = typeof e?.title === 'string' ? e.title.trim() : ''
    if (title) return title
  }
  return null
}

export const useConfigStore = create<ConfigState>()(
  persist(
    (set) => ({
      source: null,
      tags: [],
      domains: null,
      lines: null,
      setSource: (source) => set({ source }),
      setTags: (tags) => set({ tags }),
      setDomains: (domains) => set({ domains }),
      setLines: (lines) => set({ lines }),
    }),
    {
      name: 'config',
      storage: primaStorage<Persisted>(),
      partialize: (s) => ({ source: s.source, tags: s.tags, domains: s.domains, lines: s.lines }),
    },
  ),
)

// useVideoURL puts a server-relative stream (a signed HLS playlist) on the
// video line this device chose (src/app/lines.ts); until then, and on a
// single-origin install, it stays on this origin. The playlist's segments
// are relative, so they follow it to the line.
export function useVideoURL(path: string | null): string | null {
  const line = useConfigStore((s) => s.lines?.video)
  if (!path) return path
  return mediaURL(path, line, typeof location === 'undefined' ? undefined : location.origin)
}

// useAppName: the operator's name for the app, else the built-in one.
export function useAppName(): string {
  return useConfigStore((s) => appNameOf(s.source)) ?? t('app.name')
}

// navOpen reads NAVOPEN from the remote configuration: whether the dark
// module's tab is in the tab bar. Its first entry's title says so ("开启"
// in the seed); only an explicit off (关闭, 关, off, close, false, 0, no)
// hides it, so a missing or unknown value keeps the tab.
export function navOpen(source: Pick<SourceConfig, 'NAVOPEN'> | null | undefined): boolean {
  const list = Array.isArray(source?.NAVOPEN) ? source.NAVOPEN : []
  const title = typeof list[0]?.title === 'string' ? list[0].title.trim().toLowerCase() : ''
  return !['关闭', '关', 'off', 'close', 'closed', 'false', '0', 'no'].includes(title)
}
