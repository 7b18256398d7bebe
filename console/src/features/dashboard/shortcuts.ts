import type { MessageKey } from '@/i18n'
import { visiblePages } from '@/lib/pages'

// shortcuts: the pages this role may open that the overview describes.
export function shortcuts(sections: readonly string[]): { path: string; label: MessageKey; hint: MessageKey }[] {
  return visiblePages(sections).flatMap((p) => (p.hint ? [{ path: p.path, label: p.label, hint: p.hint }] : []))
}
