// Pure rules of pull to refresh (components/PullRefresh): how far the
// content follows a finger pulling down from the top of the page, and what
// the head says. Kept free of the DOM so they are unit-tested.

// PULL_HEAD is the height (px) of the head that says what a release does;
// the content rests this far down while refreshing.
export const PULL_HEAD = 40
// PULL_THRESHOLD: pulled this far (after the resistance below), a release
// refreshes.
export const PULL_THRESHOLD = 60
// PULL_MAX: however far the finger goes, the content moves less than this.
export const PULL_MAX = 200
// PULL_COMPLETE_MS: how long "updated" stays before the content goes back;
// PULL_OFFLINE_MS the same for "offline", which takes longer to read.
export const PULL_COMPLETE_MS = 500
export const PULL_OFFLINE_MS = 1500

// offline: the refresh ended with the device offline, so nothing was
// updated, whatever the page's refresh resolved with.
export type PullStatus = 'idle' | 'pulling' | 'canRelease' | 'refreshing' | 'complete' | 'offline'

// pullOffset is how far the content moves for a finger dy px below where it
// started: with growing resistance, like iOS's rubber band (half the
// finger's distance at first, never past PULL_MAX); nothing for an upward
// move.
export function pullOffset(dy: number): number {
  if (!(dy > 0)) return 0
  const c = 0.5
  return Math.floor((dy * PULL_MAX * c) / (PULL_MAX + c * dy))
}

// pullStatus is what the head says while the finger is down.
export function pullStatus(offset: number): 'pulling' | 'canRelease' {
  return offset >= PULL_THRESHOLD ? 'canRelease' : 'pulling'
}
