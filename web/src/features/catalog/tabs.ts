// The home tab row: each module of the screen, followed by its
// sub-modules. A module tab shows the module's sections; a sub-module tab
// shows that sub-module's videos. Module and sub-module ids come from one
// table, so an id alone names a tab.
import type { Module } from './types'

export interface HomeTab {
  key: string
  id: number
  kind: 'module' | 'sub'
  name: string
}

export function homeTabs(modules: Module[]): HomeTab[] {
  return modules.flatMap((m) => [
    { key: `m${m.moduleID}`, id: m.moduleID, kind: 'module' as const, name: m.moduleName },
    ...m.subModules.map((s) => ({ key: `s${s.id}`, id: s.id, kind: 'sub' as const, name: s.moduleName })),
  ])
}

// pickTab: the remembered tab if it still exists, else the operator's
// default (MODULESELECTINDEX, 1-based as the spec's default of 1 means the
// first tab), else the first.
export function pickTab(tabs: HomeTab[], remembered: number | undefined, defaultIndex: number): HomeTab | undefined {
  if (remembered != null) {
    const hit = tabs.find((t) => t.id === remembered && t.kind === 'module') ?? tabs.find((t) => t.id === remembered)
    if (hit) return hit
  }
  const i = Number.isInteger(defaultIndex) && defaultIndex >= 1 && defaultIndex <= tabs.length ? defaultIndex - 1 : 0
  return tabs[i]
}

// defaultTabIndex reads MODULESELECTINDEX from the remote configuration:
// the first entry's title holds the number.
export function defaultTabIndex(entries: { title: string }[] | undefined): number {
  const n = Number(entries?.[0]?.title)
  return Number.isInteger(n) ? n : 1
}

// neighbourTab is the tab a sideways swipe on home moves to: the next one
// for a swipe to the left (dir 1), the previous for one to the right (dir
// -1); none past either end.
export function neighbourTab(tabs: HomeTab[], currentKey: string, dir: 1 | -1): HomeTab | undefined {
  const i = tabs.findIndex((t) => t.key === currentKey)
  if (i < 0) return undefined
  return tabs[i + dir]
}

// CHANNEL_SWIPE_PX: how far a sideways swipe must travel to change channel
// (a short sideways wobble while scrolling does nothing).
export const CHANNEL_SWIPE_PX = 60

// channelSwipe decides a finished horizontal gesture: 1 (next), -1
// (previous) or 0 (none). A fast flick of at least 30 px counts too.
export function channelSwipe(dx: number, vx: number): 1 | -1 | 0 {
  if (Math.abs(dx) >= CHANNEL_SWIPE_PX || (Math.abs(dx) >= 30 && Math.abs(vx) > 0.5 && Math.sign(vx) === Math.sign(dx))) return dx < 0 ? 1 : -1
  return 0
}

// bannerIndex steps a carousel of n slides forwards or back, wrapping.
export function bannerIndex(i: number, n: number, step: number): number {
  if (n <= 0) return 0
  return (((i + step) % n) + n) % n
}
