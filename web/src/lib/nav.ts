// The current_op flag (spec §2): after each navigation, local storage holds
// current_op = 1 if the page just left was one of these, otherwise the flag
// is removed. Pages that return to a list read it to keep their scroll and
// filters instead of reloading.
import { storage } from './storage'

export const CURRENT_OP_ROUTES = ['detail', 'homesearch', 'topic', 'usercenter', 'postdetail'] as const
export const CURRENT_OP_KEY = 'current_op'

export function currentOpAfter(leftRouteName: string | null | undefined): 1 | null {
  return leftRouteName != null && (CURRENT_OP_ROUTES as readonly string[]).includes(leftRouteName) ? 1 : null
}

export function applyCurrentOp(leftRouteName: string | null | undefined): void {
  const v = currentOpAfter(leftRouteName)
  if (v === null) storage.remove(CURRENT_OP_KEY)
  else storage.set(CURRENT_OP_KEY, v)
}

// canGoBack: react-router keeps its own history index in history.state.idx;
// 0 means this page was the first one of the visit, and going back would
// leave the app (or land on whatever page the browser had before).
export function canGoBack(): boolean {
  const idx = (window.history.state as { idx?: number } | null)?.idx
  return typeof idx === 'number' && idx > 0
}
