// parsePostID reads /cdetail/:id: a positive integer up to 2^53-1, else NaN
// (the page shows not-found without asking the server).
export function parsePostID(raw: string | undefined): number {
  if (raw == null || !/^[1-9][0-9]{0,15}$/.test(raw)) return NaN
  const n = Number(raw)
  return Number.isSafeInteger(n) ? n : NaN
}
