// The before/after of an audit row, field by field. Rows hold JSON objects
// of the fields a change touched (or null: a creation has no before, a
// deletion no after); older rows may carry the JSON as text.
export type Change = 'added' | 'removed' | 'changed' | 'same'

export interface FieldDiff {
  key: string
  before: string | null // JSON text of the value; null when absent
  after: string | null
  change: Change
}

function asObject(v: unknown): Record<string, unknown> | null {
  if (typeof v === 'string') {
    try {
      return asObject(JSON.parse(v))
    } catch {
      return { value: v }
    }
  }
  if (v === null || v === undefined) return null
  if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>
  return { value: v }
}

// stable JSON: keys sorted at every depth, so {a,b} and {b,a} compare equal.
function stable(v: unknown): string {
  if (Array.isArray(v)) return '[' + v.map(stable).join(',') + ']'
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return '{' + Object.keys(o).sort().map((k) => JSON.stringify(k) + ':' + stable(o[k])).join(',') + '}'
  }
  return JSON.stringify(v) ?? 'null'
}

export function diffFields(before: unknown, after: unknown): FieldDiff[] {
  const b = asObject(before) ?? {}
  const a = asObject(after) ?? {}
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()
  return keys.map((key) => {
    const inB = Object.hasOwn(b, key)
    const inA = Object.hasOwn(a, key)
    const bv = inB ? stable(b[key]) : null
    const av = inA ? stable(a[key]) : null
    const change: Change = !inB ? 'added' : !inA ? 'removed' : bv === av ? 'same' : 'changed'
    return { key, before: bv, after: av, change }
  })
}
