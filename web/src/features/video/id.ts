// parseID: the route's :id as a positive safe integer, else NaN (a path
// like /detail/abc or /detail/0 is a video that cannot exist).
export function parseID(raw: string | undefined): number {
  if (!raw || !/^\d{1,16}$/.test(raw)) return NaN
  const n = Number(raw)
  return Number.isSafeInteger(n) && n > 0 ? n : NaN
}
