// App-wide client state: the device id, the selected tab of each tabbed
// screen, the dark flag and the language. Persisted under prima_app.
import { create } from 'zustand'
import { persist } from 'zustand/middleware'
import { deviceId } from '@/lib/device'
import type { Lang } from '@/i18n'
import { primaStorage } from './persist'

export interface AppState {
  // uid is the generated device id (spec §3 "App state: uid"); lib/device
  // owns its generation and storage, the store only exposes it.
  uid: string
  // tabs remembers the selected tab per screen, e.g. tabs.home = moduleID.
  tabs: Record<string, number>
  // dark is the global dark flag; null follows the system setting until the
  // user picks one.
  dark: boolean | null
  lang: Lang
  // darkWeb is the spec's global dark-web flag (§2: the root view takes
  // the dark style while it is set): the dark module's page sets it while
  // it is shown, whatever the user's own choice. Not persisted.
  darkWeb: boolean
  setDarkWeb: (on: boolean) => void
  setTab: (screen: string, value: number) => void
  setDark: (dark: boolean) => void
  setLang: (lang: Lang) => void
}

type Persisted = Pick<AppState, 'tabs' | 'dark' | 'lang'>

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      uid: deviceId(),
      tabs: {},
      dark: null,
      lang: 'zh-CN',
      darkWeb: false,
      setDarkWeb: (darkWeb) => set({ darkWeb }),
      setTab: (screen, value) => set((s) => ({ tabs: { ...s.tabs, [screen]: value } })),
      setDark: (dark) => set({ dark }),
      setLang: (lang) => set({ lang }),
    }),
    {
      name: 'app',
      storage: primaStorage<Persisted>(),
      partialize: (s) => ({ tabs: s.tabs, dark: s.dark, lang: s.lang }),
      // A garbled or older saved state keeps the current value field by field.
      merge: (persisted, current) => {
        const p = (persisted ?? {}) as Partial<Persisted>
        return {
          ...current,
          tabs: p.tabs && typeof p.tabs === 'object' ? p.tabs : current.tabs,
          dark: typeof p.dark === 'boolean' || p.dark === null ? p.dark : current.dark,
          lang: p.lang === 'en' || p.lang === 'zh-CN' ? p.lang : current.lang,
        }
      },
    },
  ),
)

export function systemPrefersDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches
}

// isDark is the effective theme: the user's choice, else the system's.
export function isDark(s: Pick<AppState, 'dark'>, system = systemPrefersDark()): boolean {
  return s.dark ?? system
}
