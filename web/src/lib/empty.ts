// isEmpty is spec §5's empty check: null/undefined, blank or whitespace-only
// strings, empty arrays, empty plain objects, and empty Maps/Sets. Numbers
// (0, NaN) and booleans (false) are values, never empty; so are class
// instances such as Date.
export function isEmpty(v: unknown): boolean {
  if (v == null) return true
  if (typeof v === 'string') return v.trim() === ''
  if (Array.isArray(v)) return v.length === 0
  if (v instanceof Map || v instanceof Set) return v.size === 0
  if (typeof v === 'object') {
    const proto = Object.getPrototypeOf(v)
    if (proto !== Object.prototype && proto !== null) return false
    return Object.keys(v).length === 0
  }
  return false
}
