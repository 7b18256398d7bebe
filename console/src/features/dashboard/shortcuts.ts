import type { MessageKey } from '@/i18n'
import { visiblePages } from '@/lib/pages'
import type { Role } from '@/lib/session'

// shortcuts: the pages this role may open that the overview describes.
export function shortcuts(sections: readonly string[], role?: Role): { path: string; label: MessageKey; hint: MessageKey }[] {
  return visiblePages(sections, role).flatMap((p) => (p.hint ? [{ path: p.path, label: p.label, hint: p.hint }] : []))
}
