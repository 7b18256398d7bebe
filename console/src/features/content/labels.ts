import type { MessageKey } from '@/i18n'

export const typeLabel = (n: number): MessageKey | null => (n >= 0 && n <= 4 ? (`content.type${n}` as MessageKey) : null)
export const accessLabel = (a: string): MessageKey | null => (['free', 'vip', 'svip', 'gold'].includes(a) ? (`content.access.${a}` as MessageKey) : null)

export function duration(s: number): string {
  if (!s) return '—'
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = s % 60
  const mm = String(m).padStart(h ? 2 : 1, '0')
  return (h ? `${h}:` : '') + `${mm}:${String(sec).padStart(2, '0')}`
}
