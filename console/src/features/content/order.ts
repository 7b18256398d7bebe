// Pure helpers of the content pages: moving a row (drag or up/down), the
// full top-level order a drag within one type sends, and the access level
// as the server stores it (vipLevel and coins).
import type { Access, AdminModule } from './api'

// moved is ids with the item at from put at to (both indexes into ids);
// out-of-range indexes leave ids as they are.
export function moved<T>(ids: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || to < 0 || from >= ids.length || to >= ids.length) return [...ids]
  const out = [...ids]
  const [x] = out.splice(from, 1)
  out.splice(to, 0, x as T)
  return out
}

// topOrder is every top-level module's id in the order to send to
// POST /api/admin/modules/order {pid: 0}: grouped by type 0..4, each
// group in its current order except type, which takes typeIds.
export function topOrder(tops: readonly AdminModule[], type: number, typeIds: readonly number[]): number[] {
  const out: number[] = []
  for (let ty = 0; ty <= 4; ty++) {
    if (ty === type) out.push(...typeIds)
    else out.push(...tops.filter((m) => m.moduleType === ty).map((m) => m.id))
  }
  // A module of an unknown type keeps its place at the end.
  out.push(...tops.filter((m) => m.moduleType < 0 || m.moduleType > 4).map((m) => m.id))
  return out
}

// accessFields turns the access level and price of the editor into the
// server's fields: a priced video is "gold" whatever its VIP level.
export function accessFields(access: Access, price: number | null | undefined): { vipLevel: number; coins: number } {
  switch (access) {
    case 'vip':
      return { vipLevel: 1, coins: 0 }
    case 'svip':
      return { vipLevel: 2, coins: 0 }
    case 'gold':
      return { vipLevel: 0, coins: Math.max(1, Math.floor(price ?? 1)) }
    default:
      return { vipLevel: 0, coins: 0 }
  }
}

// priceRange reads the filter's price bounds (null: no bound); a min above
// the max is swapped rather than refused.
export function priceRange(min?: number | null, max?: number | null): { coinsMin?: number; coinsMax?: number } {
  const lo = typeof min === 'number' && min >= 0 ? Math.floor(min) : undefined
  const hi = typeof max === 'number' && max >= 0 ? Math.floor(max) : undefined
  if (lo !== undefined && hi !== undefined && lo > hi) return { coinsMin: hi, coinsMax: lo }
  return { coinsMin: lo, coinsMax: hi }
}
