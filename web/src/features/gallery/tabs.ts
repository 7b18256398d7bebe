// The galleryCategory page's tabs from the images modules: with one module,
// "all" (the module) then its sub-modules; with several, each module then its
// sub-modules. A tab's key ("m12", "s34") is what the URL keeps (?tab=).
import type { ImageModule } from '@/features/gallery/types'

export interface CategoryTab {
  key: string
  name: string
  moduleID?: number
  subModuleID?: number
}

export function categoryTabs(modules: ImageModule[], allName: string): CategoryTab[] {
  const tabs: CategoryTab[] = []
  for (const m of modules) {
    tabs.push({ key: `m${m.moduleID}`, name: modules.length === 1 ? allName : m.moduleName, moduleID: m.moduleID })
    for (const s of m.subModules ?? []) tabs.push({ key: `s${s.id}`, name: s.moduleName, subModuleID: s.id })
  }
  return tabs
}

// pickTab: the tab the URL names, else the first.
export function pickTab(tabs: CategoryTab[], key: string | null): CategoryTab | undefined {
  return tabs.find((t) => t.key === key) ?? tabs[0]
}
