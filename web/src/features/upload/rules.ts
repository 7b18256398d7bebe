// What the publish page checks before sending a byte, and how it shows
// progress. The server checks again from the bytes themselves (it sniffs
// the type and cuts a body off at its limit); these checks only spare a
// phone user a long upload that would be refused.
import type { MessageKey } from '@/i18n'
import type { AssetState } from './types'

// The server's limits (internal/media DefaultLimits): a video up to 500 MiB.
export const MAX_VIDEO_BYTES = 500 << 20

// ACCEPT is the file picker's filter: the containers the server takes.
export const ACCEPT = 'video/mp4,video/quicktime,video/webm,video/x-matroska,.mp4,.mov,.m4v,.webm,.mkv'

const VIDEO_EXT = /\.(mp4|m4v|mov|webm|mkv)$/i

// precheck answers why a picked file cannot be sent, or null. A file the
// browser gives no type for is judged by its name; an empty one, or one
// over the limit, is refused here.
export function precheck(file: { name: string; size: number; type: string }): MessageKey | null {
  const isVideo = file.type ? file.type.startsWith('video/') : VIDEO_EXT.test(file.name)
  if (!isVideo) return 'upload.err.type'
  if (file.size === 0) return 'upload.err.empty'
  if (file.size > MAX_VIDEO_BYTES) return 'upload.err.tooLarge'
  return null
}

// percent is the share sent, 0..100 as a whole number; a total of 0 (not
// known yet) is 0.
export function percent(sent: number, total: number): number {
  if (!(total > 0) || !(sent > 0)) return 0
  return Math.min(100, Math.floor((sent / total) * 100))
}

// formatBytes: 1 decimal place from KB up (1024-based, as phones show sizes).
export function formatBytes(n: number): string {
  if (!(n >= 0)) return '0 B'
  if (n < 1024) return `${Math.round(n)} B`
  const units = ['KB', 'MB', 'GB']
  let v = n / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v.toFixed(1)} ${units[i]}`
}

// POLL_MS: how often a processing upload is asked about.
export const POLL_MS = 2000

// pollInterval is refetchInterval for an asset: poll while it processes.
export function pollInterval(state: AssetState | undefined): number | false {
  return state === 'processing' ? POLL_MS : false
}

// retryable: whether sending the same file again may succeed. The network,
// a timeout or a server fault may pass; a refusal of the file itself (too
// large, wrong type, unreadable: 4xx) will not, so the user picks another.
export function retryable(err: { kind?: string; status?: number }): boolean {
  if (err.kind === 'network' || err.kind === 'timeout') return true
  const s = err.status ?? 0
  return s === 0 || s >= 500 || s === 429 || s === 408
}
